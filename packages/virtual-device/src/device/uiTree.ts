/**
 * The rendered UI: what uiautomator would see right now. Built from a screen's node specs
 * and the visit's state (texts, checks, focus, scroll offsets).
 */
import type { Action, DrawnStyle, NodeSpec } from '../scenario/model.js';
import type { NormalizedScreen } from '../scenario/normalize.js';
import { intersect, rectOf, type Rect } from './geometry.js';
import type { PasswordText } from './traits.js';

export interface UiElement {
  readonly key: string;
  readonly index: number;
  readonly className: string;
  /**
   * What accessibility reports as the node's text (AccessibilityNodeInfo.getText), and so what
   * dumps, page sources, finds and `GET /text` see: TextView.getTextForAccessibility gives the
   * hint while the text is empty, and a password's transformed text (bullets) otherwise.
   */
  readonly text: string;
  /** What the field really holds (the Editable): typing and DEL work on this. */
  readonly editableText: string;
  /** AccessibilityNodeInfo.isShowingHintText: the node reports its hint because it is empty. */
  readonly showingHint: boolean;
  readonly resourceId: string;
  readonly contentDesc: string;
  readonly hint: string;
  readonly package: string;
  readonly checkable: boolean;
  readonly checked: boolean;
  readonly clickable: boolean;
  readonly enabled: boolean;
  readonly focusable: boolean;
  readonly focused: boolean;
  readonly scrollable: boolean;
  /** A scrollable's axis (scenario `orientation`, or the HorizontalScrollView class). */
  readonly horizontal: boolean;
  readonly longClickable: boolean;
  readonly password: boolean;
  readonly selected: boolean;
  /** A Flutter text field: ACTION_SET_TEXT works only while it has focus. */
  readonly setTextNeedsFocus: boolean;
  /** On-screen bounds (clipped by scrolling containers). */
  readonly bounds: Rect;
  /** Where the node is laid out before that clipping: a screenshot draws it here, cut at `bounds`. */
  readonly fullBounds: Rect;
  readonly drawingOrder: number;
  readonly onClick: readonly Action[];
  readonly onLongClick: readonly Action[];
  /** What the view draws in pixels only (scenario `drawn`): never in a dump, seen by screenshots and touches. */
  readonly drawn: readonly DrawnItem[];
  readonly children: UiElement[];
  parent: UiElement | null;
}

/** One item drawn in a view's pixels, at screen bounds. */
export interface DrawnItem {
  readonly text: string;
  readonly bounds: Rect;
  readonly onClick: readonly Action[];
  readonly style: DrawnStyle;
}

/** The mutable state of one screen visit. */
export interface Visit {
  readonly screen: NormalizedScreen;
  readonly params: Readonly<Record<string, string>>;
  readonly texts: Map<string, string>;
  readonly checked: Map<string, boolean>;
  readonly scroll: Map<string, number>;
  focusedKey: string | null;
}

export function newVisit(screen: NormalizedScreen, params: Readonly<Record<string, string>> = {}): Visit {
  return {
    screen,
    params,
    texts: new Map(),
    checked: new Map(),
    scroll: new Map(),
    focusedKey: screen.spec.focusOnOpen ?? null,
  };
}

export function substitute(template: string, visit: Visit): string {
  if (!template.includes('{{')) return template;
  return template.replace(/\{\{(@?)([^}]+)\}\}/g, (_m, at: string, name: string) => {
    if (at === '@') return textOfKey(visit, name);
    return visit.params[name] ?? '';
  });
}

export function textOfKey(visit: Visit, key: string): string {
  const override = visit.texts.get(key);
  if (override !== undefined) return override;
  const spec = visit.screen.nodesByKey.get(key);
  return spec ? substitute(spec.text ?? '', visit) : '';
}

function allTexts(spec: NodeSpec, visit: Visit): string[] {
  const own = [textOfKey(visit, spec.key ?? ''), substitute(spec.contentDesc ?? '', visit)];
  return own.concat(...(spec.children ?? []).map((c) => allTexts(c, visit)));
}

interface Placed {
  readonly spec: NodeSpec;
  readonly extraDy: number;
}

/**
 * What a search compares: lower case, letters and digits only. Real Settings search finds Wi-Fi
 * for "wifi" (AOSP Settings indexes keywords with each entry, `keywords_wifi` being "wifi, wi-fi,
 * …"); the double gets the same answer by ignoring punctuation on both sides.
 */
function searchForm(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Children of a list, filtered by a query field and restacked when the list asks for it. */
function placedChildren(spec: NodeSpec, visit: Visit): Placed[] {
  const children = spec.children ?? [];
  if (spec.filterBy === undefined) return children.map((c) => ({ spec: c, extraDy: 0 }));
  const query = searchForm(textOfKey(visit, spec.filterBy));
  if (query === '') return [];
  const first = children[0];
  let cursor = first ? first.bounds[1] : spec.bounds[1];
  const placed: Placed[] = [];
  for (const child of children) {
    if (!allTexts(child, visit).some((t) => searchForm(t).includes(query))) continue;
    placed.push({ spec: child, extraDy: cursor - child.bounds[1] });
    cursor += child.bounds[3] - child.bounds[1];
  }
  return placed;
}

/** Whether a scrollable node scrolls sideways: its scenario says so, or it is a HorizontalScrollView. */
export function scrollsHorizontally(spec: NodeSpec): boolean {
  return spec.orientation === 'horizontal' || spec.class.endsWith('HorizontalScrollView');
}

/** How far a scrollable node can scroll: its content's bottom beyond its own bottom (its right beyond its right when horizontal). */
export function maxScroll(spec: NodeSpec, visit: Visit): number {
  if (scrollsHorizontally(spec)) {
    let right = spec.bounds[2];
    for (const { spec: child } of placedChildren(spec, visit)) right = Math.max(right, child.bounds[2]);
    return Math.max(0, right - spec.bounds[2]);
  }
  let bottom = spec.bounds[3];
  for (const { spec: child, extraDy } of placedChildren(spec, visit))
    bottom = Math.max(bottom, child.bounds[3] + extraDy);
  return Math.max(0, bottom - spec.bounds[3]);
}

/** One bullet per UTF-16 unit, as PasswordTransformationMethod's PasswordCharSequence (U+2022). */
export function passwordBullets(text: string): string {
  return '\u2022'.repeat(text.length);
}

export interface RenderOptions {
  readonly passwordText: PasswordText;
  /** Where the layout puts a node laid out for the portrait screen (the display turned: rotation.ts); absent: where it is. */
  readonly layout?: (r: Rect) => Rect;
}

/**
 * TextView.getTextForAccessibility (AOSP): an empty text reports the hint, anything else its
 * transformed text (bullets for a password, unless the view exposes the plain text). A static
 * screen replays a real capture, whose texts are already what the device reported.
 */
function accessibilityText(
  spec: NodeSpec,
  content: string,
  visit: Visit,
  options: RenderOptions,
): { text: string; showingHint: boolean } {
  const hint = spec.hint ?? '';
  if (visit.screen.spec.static === true) return { text: content, showingHint: hint !== '' && content === hint };
  if (content === '') return { text: hint, showingHint: hint !== '' };
  if (spec.password === true && options.passwordText === 'bullets')
    return { text: passwordBullets(content), showingHint: false };
  return { text: content, showingHint: false };
}

export function renderVisit(visit: Visit, options: RenderOptions = { passwordText: 'bullets' }): UiElement {
  let order = 0;
  const render = (
    spec: NodeSpec,
    dy: number,
    dx: number,
    clip: Rect | null,
    index: number,
    pkg: string,
  ): UiElement | null => {
    const full = options.layout ? options.layout(rectOf(spec.bounds, dy, dx)) : rectOf(spec.bounds, dy, dx);
    const bounds = clip ? intersect(full, clip) : full;
    if (!bounds) return null;
    const key = spec.key ?? '';
    const isScroller = visit.screen.spec.static !== true && spec.scrollable === true && spec.children !== undefined;
    const horizontal = scrollsHorizontally(spec);
    const offset = isScroller ? (visit.scroll.get(key) ?? 0) : 0;
    const childDy = horizontal ? dy : dy - offset;
    const childDx = horizontal ? dx - offset : dx;
    const childClip = isScroller ? bounds : clip;
    const content = textOfKey(visit, key);
    const reported = accessibilityText(spec, content, visit, options);
    const element: UiElement = {
      key,
      index,
      className: spec.class,
      text: reported.text,
      editableText: content,
      showingHint: reported.showingHint,
      resourceId: spec.resourceId ?? '',
      contentDesc: substitute(spec.contentDesc ?? '', visit),
      hint: spec.hint ?? '',
      package: spec.package ?? pkg,
      checkable: spec.checkable ?? false,
      checked: visit.checked.get(key) ?? spec.checked ?? false,
      clickable: spec.clickable ?? false,
      enabled: spec.enabled ?? true,
      focusable: spec.focusable ?? false,
      focused: visit.focusedKey !== null ? visit.focusedKey === key : (spec.focused ?? false),
      scrollable: spec.scrollable ?? false,
      horizontal: spec.scrollable === true && horizontal,
      longClickable: spec.longClickable ?? false,
      password: spec.password ?? false,
      selected: spec.selected ?? false,
      setTextNeedsFocus: spec.setTextNeedsFocus ?? false,
      bounds,
      fullBounds: full,
      drawingOrder: order++,
      onClick: spec.onClick ?? [],
      onLongClick: spec.onLongClick ?? [],
      drawn: (spec.drawn ?? []).map((d) => ({
        text: d.text,
        bounds: rectOf(d.bounds),
        onClick: d.onClick ?? [],
        style: d.style ?? 'button',
      })),
      children: [],
      parent: null,
    };
    for (const { spec: child, extraDy } of placedChildren(spec, visit)) {
      const rendered = render(child, childDy + extraDy, childDx, childClip, element.children.length, element.package);
      if (rendered) {
        rendered.parent = element;
        element.children.push(rendered);
      }
    }
    return element;
  };
  const root = render(visit.screen.root, 0, 0, null, 0, visit.screen.spec.package);
  if (!root) throw new Error(`Screen '${visit.screen.spec.id}' has an empty root.`);
  return root;
}

/** Document order (pre-order), the order uiautomator dumps and XPath results use. */
export function flatten(root: UiElement): UiElement[] {
  const out: UiElement[] = [];
  const walk = (e: UiElement): void => {
    out.push(e);
    for (const c of e.children) walk(c);
  };
  walk(root);
  return out;
}

export function describeElement(e: UiElement): string {
  const label = e.text || e.contentDesc || e.hint || e.resourceId;
  return `${e.className}${label ? ` "${label.replace(/\n/g, '\\n')}"` : ''}`;
}
