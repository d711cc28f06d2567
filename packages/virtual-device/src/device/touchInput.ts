/**
 * Touches on the screen: where a press lands (the lock screen, the keyboard, a system bar or the
 * app's topmost clickable node), whether a hold became a long click, and which container a drag
 * scrolls. Every tap is recorded and logged with the bounds it hit.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { Action } from '../scenario/model.js';
import { NAVIGATION_BAR_HEIGHT, STATUS_BAR_HEIGHT } from '../scenario/model.js';
import { contains, formatBounds, type Rect } from './geometry.js';
import { listTravel, type TouchStroke } from './touch.js';
import type { ClickRecord, ClickSource } from './uiTypes.js';
import { describeElement, flatten, type UiElement, type Visit } from './uiTree.js';

/**
 * The system bar at a height, if any. Both bars' windows are System UI's and take the touches
 * inside their frames: the three-button navigation bar is touchable as a whole
 * (`TOUCHABLE_INSETS_FRAME` in SystemUI's NavigationBar), the status bar too (it pulls the shade).
 */
function systemBarAt(y: number, displayHeight: number): 'status' | 'navigation' | null {
  if (y < STATUS_BAR_HEIGHT) return 'status';
  return y >= displayHeight - NAVIGATION_BAR_HEIGHT ? 'navigation' : null;
}

/** What a touch reaches of the screen state machine. */
export interface TouchHost {
  current(): Visit;
  tree(): UiElement;
  imeVisible(): boolean;
  imeFrame(): Rect;
  displaySize(): { width: number; height: number };
  /** Logs why an input does not reach the app (lock screen, display off) and says whether it was blocked. */
  blocked(what: string): boolean;
  longPressTimeoutMs(): number;
  /** The effective dpi: touch slop and fling velocities scale with it. */
  dpi(): number;
  log(kind: DeviceLogKind, detail: string): void;
  focus(visit: Visit, key: string): void;
  toggle(visit: Visit, key: string): void;
  run(actions: readonly Action[], visit: Visit, reason: string, selfKey?: string): void;
  scrollBy(key: string, delta: number, reason: string): boolean;
}

export class TouchInput {
  private readonly clickLog: ClickRecord[] = [];

  constructor(private readonly host: TouchHost) {}

  clicks(): readonly ClickRecord[] {
    return this.clickLog;
  }

  clearClicks(): void {
    this.clickLog.length = 0;
  }

  private record(record: ClickRecord): ClickRecord {
    this.clickLog.push(record);
    const el = record.element
      ? ` element=${record.element.key} ${record.element.description} bounds=${formatBounds(record.element.bounds)}`
      : '';
    const target = record.onKeyboard
      ? ' target=ime'
      : record.onSystemBar
        ? ` target=${record.onSystemBar}-bar (System UI takes it, the app does not see it)`
        : record.target
          ? ` target=${record.target.key} ${record.target.description} bounds=${formatBounds(record.target.bounds)}`
          : ' target=none';
    const held = record.heldMs > 0 ? ` held=${record.heldMs}ms` : '';
    const kind = record.gesture === 'long-click' ? 'long-click' : 'click';
    this.host.log(kind, `${record.source} at=(${record.x},${record.y})${held}${el}${target} screen=${record.screenId}`);
    return record;
  }

  /**
   * A pointer held down for `heldMs` at one point, then released (View.onTouchEvent): a long
   * click fires only when the hold passes the long-press timeout and the touched node is
   * long-clickable; its OnLongClickListener (`onLongClick`) handles it. An unhandled long click,
   * a long hold on a node that is only clickable, and any shorter press end in a click.
   */
  press(x: number, y: number, heldMs: number, source: ClickSource, element: UiElement | null = null): ClickRecord {
    const host = this.host;
    const visit = host.current();
    const screenId = visit.screen.spec.id;
    const named = element ? { key: element.key, bounds: element.bounds, description: describeElement(element) } : null;
    const held = Math.max(0, Math.round(heldMs));
    const missed = {
      source,
      gesture: 'click',
      heldMs: held,
      screenId,
      x,
      y,
      element: named,
      target: null,
      onKeyboard: false,
    } as const;
    if (host.blocked(`${source} at (${x},${y})`)) return this.record(missed);
    if (host.imeVisible() && contains(host.imeFrame(), x, y)) return this.record({ ...missed, onKeyboard: true });
    // An edge-to-edge app draws under the bars, but a touch there still goes to their window.
    // System UI's own nodes (a capture's navigation buttons) are the bar's window and take it.
    const bar = systemBarAt(y, host.displaySize().height);
    if (bar && !this.hitTest(x, y, (e) => e.package === 'com.android.systemui'))
      return this.record({ ...missed, onSystemBar: bar });
    const longPress = held > host.longPressTimeoutMs();
    const canvas = this.hitTest(x, y, () => true);
    if (canvas && canvas.drawn.length > 0) return this.pressDrawn(canvas, missed, longPress);
    // A long-clickable view takes the touch stream too (it is "clickable" to onTouchEvent), so a long
    // hold reaches the topmost clickable or long-clickable node; a short tap keeps the click hit test.
    const hit = longPress
      ? this.hitTest(x, y, (e) => (e.clickable || e.longClickable) && e.enabled)
      : this.hitTest(x, y, (e) => e.clickable && e.enabled);
    const longClick = longPress && hit !== null && hit.longClickable;
    const record = this.record({
      source,
      gesture: longClick ? 'long-click' : 'click',
      heldMs: held,
      screenId,
      x,
      y,
      element: named,
      target: hit ? { key: hit.key, bounds: hit.bounds, description: describeElement(hit) } : null,
      onKeyboard: false,
    });
    if (!hit || visit.screen.spec.static) return record;
    if (longClick && hit.onLongClick.length > 0) {
      host.run(hit.onLongClick, visit, `long click ${describeElement(hit)}`, hit.key);
      return record;
    }
    if (longClick) host.log('screen', `long click on ${describeElement(hit)} not handled: released as a click`);
    if (hit.className.endsWith('EditText')) host.focus(visit, hit.key);
    if (hit.onClick.length > 0) host.run(hit.onClick, visit, `click ${describeElement(hit)}`, hit.key);
    else if (hit.checkable) host.toggle(visit, hit.key);
    return record;
  }

  /**
   * A touch on a view that draws its own content (a game's SurfaceView, a canvas): View.dispatchTouchEvent
   * hands the event to the view's own onTouchEvent whatever its clickable flag (AOSP
   * frameworks/base/core/java/android/view/View.java, dispatchTouchEvent: `if (!result &&
   * onTouchEvent(event)) result = true`), and the app decides from the point alone which drawn item
   * it hit. The log names the item, or says the touch hit none of them.
   */
  private pressDrawn(view: UiElement, missed: ClickRecord, longPress: boolean): ClickRecord {
    const host = this.host;
    const { x, y } = missed;
    const item = view.drawn.find((d) => contains(d.bounds, x, y));
    const description = `${describeElement(view)} drawn ${item ? `"${item.text}"` : 'nothing'}`;
    const record = this.record({
      ...missed,
      gesture: 'click',
      target: { key: view.key, bounds: item?.bounds ?? view.bounds, description },
    });
    const visit = host.current();
    if (!item || visit.screen.spec.static) return record;
    if (longPress) host.log('screen', `long press on drawn "${item.text}": the view handles it as a click`);
    if (item.onClick.length > 0) host.run(item.onClick, visit, `click drawn "${item.text}"`, view.key);
    return record;
  }

  /** Topmost element (last drawn) at a point that passes the filter. */
  hitTest(x: number, y: number, accept: (e: UiElement) => boolean): UiElement | null {
    const all = flatten(this.host.tree());
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i];
      if (e && contains(e.bounds, x, y) && accept(e)) return e;
    }
    return null;
  }

  /**
   * A finger that went down, moved and lifted. The window under the first touch gets the whole
   * gesture: the open IME (the keyboard scrolls, the app does not), a system bar (System UI), or
   * the app, where the scrollable container under that point follows the finger past the touch
   * slop and flings on when the lift was fast enough (touch.ts). Returns whether content moved.
   */
  drag(stroke: TouchStroke, reason: string): boolean {
    const host = this.host;
    const start = stroke.samples[0];
    if (!start) return false;
    const { x, y } = start;
    const end = stroke.up;
    const line = `${reason} swipe (${x},${y})->(${end.x},${end.y}) in ${end.t} ms`;
    if (host.blocked(line)) return false;
    if (host.imeVisible() && contains(host.imeFrame(), x, y)) {
      host.log('input', `${line} on the keyboard: the IME window takes it, the app does not move`);
      return false;
    }
    const bar = systemBarAt(y, host.displaySize().height);
    if (bar) {
      host.log('input', `${line} on the ${bar} bar: System UI takes it, the app does not move`);
      return false;
    }
    // The axis the finger moved along most: a horizontal list ignores a vertical drag (RecyclerView
    // tests canScrollVertically before it takes dy) and its vertical parent intercepts it, and the
    // other way round, so the topmost container at the touch that scrolls along that axis takes it.
    const last = stroke.samples[stroke.samples.length - 1] ?? start;
    const axis = Math.abs(last.x - x) > Math.abs(last.y - y) ? 'x' : 'y';
    const scroller = this.hitTest(x, y, (e) => e.scrollable && e.horizontal === (axis === 'x'));
    const travel = listTravel(stroke, host.dpi(), axis);
    const over = scroller
      ? ` over ${scroller.key}`
      : ` over nothing that scrolls ${axis === 'x' ? 'sideways' : 'vertically'}`;
    const fling = travel.fling !== 0 ? `, fling ${travel.fling} px` : ', no fling';
    host.log('input', `${line}${over}: drag ${travel.drag} px, release ${Math.round(travel.velocity)} px/s${fling}`);
    if (!scroller || host.current().screen.spec.static) return false;
    const dragged = travel.drag !== 0 && host.scrollBy(scroller.key, travel.drag, reason);
    const flung = travel.fling !== 0 && host.scrollBy(scroller.key, travel.fling, `${reason} fling`);
    return dragged || flung;
  }
}
