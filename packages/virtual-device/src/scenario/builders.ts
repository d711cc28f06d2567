/**
 * Small helpers that write uiautomator-shaped node trees without repeating the
 * Android window decor and list geometry on every screen.
 */
import type { Action, BoundsTuple, NodeSpec } from './model.js';
import { NAVIGATION_BAR_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_BAR_HEIGHT } from './model.js';

export const C = {
  frame: 'android.widget.FrameLayout',
  linear: 'android.widget.LinearLayout',
  relative: 'android.widget.RelativeLayout',
  text: 'android.widget.TextView',
  image: 'android.widget.ImageView',
  imageButton: 'android.widget.ImageButton',
  button: 'android.widget.Button',
  edit: 'android.widget.EditText',
  switch: 'android.widget.Switch',
  recycler: 'androidx.recyclerview.widget.RecyclerView',
  scroll: 'android.widget.ScrollView',
  view: 'android.view.View',
  viewGroup: 'android.view.ViewGroup',
} as const;

type NodeOptions = Omit<NodeSpec, 'class' | 'bounds' | 'children'>;

export function node(
  cls: string,
  bounds: BoundsTuple,
  options: NodeOptions = {},
  children: readonly NodeSpec[] = [],
): NodeSpec {
  return children.length > 0 ? { class: cls, bounds, ...options, children } : { class: cls, bounds, ...options };
}

/** The bottom of the app area, above the navigation bar. */
export const CONTENT_BOTTOM = SCREEN_HEIGHT - NAVIGATION_BAR_HEIGHT;

/** DecorView → LinearLayout → `android:id/content`, as every activity window dumps. */
export function appWindow(content: readonly NodeSpec[]): NodeSpec {
  const full: BoundsTuple = [0, 0, SCREEN_WIDTH, SCREEN_HEIGHT];
  return node(C.frame, full, {}, [
    node(C.linear, full, {}, [
      node(
        C.frame,
        [0, STATUS_BAR_HEIGHT, SCREEN_WIDTH, CONTENT_BOTTOM],
        { resourceId: 'android:id/content' },
        content,
      ),
    ]),
  ]);
}

/**
 * An edge-to-edge activity window: `android:id/content` spans the whole display,
 * under the status and navigation bars, as Android 15 lays out every app that targets API 35
 * (`R.attr.windowOptOutEdgeToEdgeEnforcement` aside). The bars are still drawn on top and still
 * take the touches inside their frames.
 */
export function edgeToEdgeWindow(content: readonly NodeSpec[]): NodeSpec {
  const full: BoundsTuple = [0, 0, SCREEN_WIDTH, SCREEN_HEIGHT];
  return node(C.frame, full, {}, [
    node(C.linear, full, {}, [node(C.frame, full, { resourceId: 'android:id/content' }, content)]),
  ]);
}

export const BACK: Action = { type: 'back' };

/** A Settings-style toolbar: an up button (content-desc `Navigate up`) and a title. */
export function toolbar(pkg: string, title: string, up = true): NodeSpec {
  const children: NodeSpec[] = [];
  if (up) {
    children.push(
      node(C.imageButton, [0, 84, 147, 231], {
        contentDesc: 'Navigate up',
        clickable: true,
        focusable: true,
        onClick: [BACK],
      }),
    );
  }
  children.push(node(C.text, [up ? 189 : 63, 105, 1017, 210], { key: 'title', text: title }));
  return node(C.viewGroup, [0, STATUS_BAR_HEIGHT, SCREEN_WIDTH, 252], { resourceId: `${pkg}:id/action_bar` }, children);
}

export interface RowOptions {
  readonly key?: string;
  readonly title: string;
  readonly summary?: string;
  readonly onClick?: readonly Action[];
  /** A switch at the end of the row (the row toggles it). */
  readonly switchNode?: { readonly key: string; readonly resourceId: string; readonly checked: boolean };
}

/** One preference row: icon, title, summary; the row itself is the clickable node. */
export function row(top: number, height: number, options: RowOptions): NodeSpec {
  const bottom = top + height;
  const texts: NodeSpec[] = [node(C.text, [189, top + 50, 900, top + 115], { text: options.title })];
  if (options.summary !== undefined) {
    texts.push(node(C.text, [189, top + 115, 900, top + 170], { text: options.summary }));
  }
  const children: NodeSpec[] = [
    node(C.image, [63, top + Math.round(height / 2) - 32, 126, top + Math.round(height / 2) + 31]),
    node(C.relative, [189, top + 50, 900, top + (options.summary !== undefined ? 170 : 115)], {}, texts),
  ];
  let onClick = options.onClick;
  if (options.switchNode) {
    children.push(
      node(C.switch, [933, top + Math.round(height / 2) - 42, 1017, top + Math.round(height / 2) + 42], {
        key: options.switchNode.key,
        resourceId: options.switchNode.resourceId,
        checkable: true,
        checked: options.switchNode.checked,
        focusable: false,
      }),
    );
    onClick = onClick ?? [{ type: 'toggle', node: options.switchNode.key }];
  }
  return node(
    C.linear,
    [0, top, SCREEN_WIDTH, bottom],
    {
      ...(options.key !== undefined ? { key: options.key } : {}),
      clickable: true,
      focusable: true,
      ...(onClick ? { onClick } : {}),
    },
    children,
  );
}

/** Stacks rows of one height from `top` down (content coordinates of a list). */
export function stackRows(top: number, height: number, rows: readonly RowOptions[]): NodeSpec[] {
  return rows.map((options, i) => row(top + i * height, height, options));
}

export function list(
  resourceId: string,
  bounds: BoundsTuple,
  children: readonly NodeSpec[],
  extra: NodeOptions = {},
): NodeSpec {
  return node(C.recycler, bounds, { key: 'list', resourceId, scrollable: true, focusable: true, ...extra }, children);
}
