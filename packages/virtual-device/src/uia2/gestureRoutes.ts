/**
 * The gesture endpoints of the UiAutomator2 server (`/appium/gestures/…`, the `mobile: …Gesture`
 * commands), as appium-uiautomator2-server's handlers (handler/gestures/*.java) run them:
 * - the body is read into a model (model/api/gestures/*Model.java) whose `@RequiredField`s must be
 *   present (BaseModel.validate); every IllegalArgumentException becomes 400 `invalid argument`
 *   with the exception's toString as its message (SafeRequestHandler, UiAutomator2Exception(Throwable));
 * - `origin` names a cached element, else a screen point (`offset`, `start`) or an `area` rectangle;
 * - an element's swipe, scroll, fling and pinch use its bounds less a 10 % margin on every side
 *   (AxNodeInfoHelper.getBoundsForGestures), its click, double click and drag its centre;
 * - speeds are px/s and default to UiObject2's dp/s constants times the density (Gestures.java);
 * - the strokes are androidx's (Gestures.swipeRect, drag, pinchOpen/Close) and reach the screen as
 *   any finger does (DeviceUi.drag: the list under the first touch follows it and maybe flings).
 * Every handler has the same shape, `(session, body) → Promise<answer>`, so a delay hook wraps
 * them all alike.
 */
import { center, type Rect } from '../device/geometry.js';
import type { TouchSample, TouchStroke } from '../device/touch.js';
import { flatten, type UiElement } from '../device/uiTree.js';
import { serverBounds } from './bounds.js';
import type { Uia2Device } from './device.js';
import type { ElementRoutes } from './elementRoutes.js';
import { illegalArgument, noSuchElement } from './errors.js';
import type { IdleWaits } from './idleWaits.js';
import { cachedElement, referencedId, type Json, type Session } from './session.js';

/** UiObject2's DEFAULT_*_SPEED, dp/s (androidx.test.uiautomator.UiObject2). */
const DEFAULT_SPEED_DP = { swipe: 5000, scroll: 1500, fling: 7500, drag: 2500, pinch: 1000 } as const;
/** ViewConfiguration.MINIMUM_FLING_VELOCITY, dp/s: GestureController.fling refuses a slower speed. */
const MINIMUM_FLING_VELOCITY_DP = 50;
/** ViewConfiguration.DOUBLE_TAP_TIMEOUT: GestureController.doubleClick sleeps half of it between the taps. */
const DOUBLE_TAP_TIMEOUT_MS = 300;
/** GestureController (androidx) injects a MOVE every MOTION_EVENT_INJECTION_DELAY_MILLIS. */
const MOVE_STEP_MS = 5;
/** Gestures.calcPinchCoordinates keeps the fingers this far inside the area. */
const PINCH_INNER_MARGIN = 5;
/** AxNodeInfoHelper.DEFAULT_GESTURE_MARGIN_PERCENT. */
const GESTURE_MARGIN = 0.1;

type Direction = 'UP' | 'DOWN' | 'LEFT' | 'RIGHT';
type Point = { x: number; y: number };

export type GestureName =
  'click' | 'double_click' | 'drag' | 'fling' | 'pinch_open' | 'pinch_close' | 'scroll' | 'swipe';

export class GestureRoutes {
  constructor(
    private readonly device: Uia2Device,
    private readonly elements: ElementRoutes,
    private readonly idle: IdleWaits,
  ) {}

  /** The handler for `POST /appium/gestures/<name>`. */
  handle(name: GestureName, session: Session, body: Json): Promise<unknown> {
    switch (name) {
      case 'click':
        return this.click(session, body, false);
      case 'double_click':
        return this.click(session, body, true);
      case 'drag':
        return this.drag(session, body);
      case 'fling':
        return this.fling(session, body);
      case 'pinch_open':
        return this.pinch(session, body, 'open');
      case 'pinch_close':
        return this.pinch(session, body, 'close');
      case 'scroll':
        return this.scroll(session, body);
      case 'swipe':
        return this.swipe(session, body);
    }
  }

  /** utils/gestures/Click.perform and DoubleClick.perform: origin, else locator, else offset. */
  private async click(session: Session, body: Json, double: boolean): Promise<null> {
    const model = double ? 'DoubleClickModel' : 'ClickModel';
    const offset = optionalPoint(body, 'offset', model);
    const originId = elementId(body);
    let element: UiElement | null = null;
    if (originId === null && isObject(body.locator)) element = this.located(session, body.locator);
    else if (originId !== null) element = cachedElement(session, this.device.ui, originId);
    let point: Point;
    if (element === null) {
      if (offset === null)
        throw illegalArgument(
          `${double ? 'Double click' : 'Click'} offset coordinates must be provided if element is not set`,
        );
      point = offset;
    } else if (offset === null) point = center(serverBounds(element));
    else point = { x: serverBounds(element).left + offset.x, y: serverBounds(element).top + offset.y };
    const source = double ? 'uia2-double-click' : 'uia2-click-gesture';
    this.device.ui.tapAt(point.x, point.y, source, element);
    if (double) {
      await this.device.clock.sleep(DOUBLE_TAP_TIMEOUT_MS / 2);
      this.device.ui.tapAt(point.x, point.y, source, element);
    }
    return null;
  }

  /** handler/gestures/Drag: a long press at the start, then a move to `end` at `speed` (Gestures.drag). */
  private async drag(session: Session, body: Json): Promise<null> {
    const end = requiredPoint(body, 'end', 'DragModel');
    const start = optionalPoint(body, 'start', 'DragModel');
    const speed = this.speed(body, 'drag');
    const originId = elementId(body);
    let from: Point;
    if (originId === null) {
      if (start === null)
        throw illegalArgument('The starting point coordinates must be provided if element is not set');
      from = start;
    } else {
      const bounds = serverBounds(cachedElement(session, this.device.ui, originId));
      from = start === null ? center(bounds) : { x: bounds.left + start.x, y: bounds.top + start.y };
    }
    // Gestures.longClick: the hold is the long-press timeout times 1.5, "to ensure detection".
    const hold = Math.trunc(this.device.system.longPressTimeoutMs() * 1.5);
    // Only a node with a long-click handler reacts to the hold; the move then cancels any click.
    const held = this.device.ui.hitTest(
      from.x,
      from.y,
      (e) => e.longClickable && e.enabled && e.onLongClick.length > 0,
    );
    if (held) this.device.ui.press(from.x, from.y, hold, 'uia2-drag');
    const stroke = strokeOf(from, end, speed, hold, 0);
    this.device.log(
      'input',
      `uia2 drag (${from.x},${from.y})->(${end.x},${end.y}) at ${speed} px/s after a ${hold} ms hold`,
    );
    await this.device.clock.sleep(stroke.up.t);
    this.device.ui.drag(stroke, 'uia2 drag');
    return null;
  }

  /** handler/gestures/Fling → GestureController.fling: a full swipe against `direction`; true while it can go on. */
  private async fling(session: Session, body: Json): Promise<boolean> {
    const direction = requiredDirection(body, 'FlingModel', 'Fling');
    const area = this.area(session, body, 'The fling area coordinates must be provided if element is not set');
    const minimum = scaled(MINIMUM_FLING_VELOCITY_DP, this.device.ui.dpi());
    const speed =
      body.speed === undefined || body.speed === null ? this.speed(body, 'fling') : Math.trunc(Number(body.speed));
    if (!(speed >= minimum))
      throw illegalArgument(
        `Speed ${body.speed === undefined ? 'null' : String(body.speed)} is less than the minimum fling velocity ${minimum}`,
      );
    const moved = await this.stroke(swipeRect(area, reverse(direction), 1, speed, 0), 'uia2 fling');
    return moved.moved && !moved.atEnd;
  }

  /**
   * handler/gestures/Scroll → GestureController.scroll: swipes of at most one area each against
   * `direction`, each ended by a 250 ms pause; false as soon as one finds the end (or moves nothing,
   * Until.scrollFinished then gives null), true when the last one still had room.
   */
  private async scroll(session: Session, body: Json): Promise<boolean> {
    const direction = requiredDirection(body, 'ScrollModel', 'Scroll');
    const percent = requiredNumber(body, 'percent', 'ScrollModel');
    const area = this.area(session, body, 'The scroll area coordinates must be provided if element is not set');
    if (percent < 0) throw illegalArgument('Percent must be greater than 0.0f');
    const speed = this.speed(body, 'scroll');
    for (let left = percent; left > 0; left -= 1) {
      const result = await this.stroke(
        swipeRect(area, reverse(direction), Math.min(left, 1), speed, 250),
        'uia2 scroll',
      );
      if (!result.moved || result.atEnd) return false;
    }
    return true;
  }

  /** handler/gestures/Swipe → GestureController.swipe: one swipe of `percent` of the area; answers null. */
  private async swipe(session: Session, body: Json): Promise<null> {
    const direction = requiredDirection(body, 'SwipeModel', 'Swipe');
    const percent = requiredNumber(body, 'percent', 'SwipeModel');
    const area = this.area(session, body, 'The swipe area coordinates must be provided if element is not set');
    const speed = this.speed(body, 'swipe');
    await this.stroke(swipeRect(area, direction, checkPercent(percent), speed, 0), 'uia2 swipe');
    return null;
  }

  /**
   * handler/gestures/PinchOpen and PinchClose: two fingers between the area's bottom-left and
   * top-right corners (5 px inside) and points `percent` of the way to its centre. The double
   * has no zoomable content: the pinch is logged with the node under its centre, and nothing moves.
   */
  private async pinch(session: Session, body: Json, kind: 'open' | 'close'): Promise<null> {
    const percent = requiredNumber(body, 'percent', 'PinchModel');
    const area = this.area(session, body, 'The pinch area coordinates must be provided if element is not set');
    const speed = this.speed(body, 'pinch');
    checkPercent(percent);
    const offsetX = Math.trunc(((width(area) - 2 * PINCH_INNER_MARGIN) / 2) * percent);
    const offsetY = Math.trunc(((height(area) - 2 * PINCH_INNER_MARGIN) / 2) * percent);
    const outer = { x: area.left + PINCH_INNER_MARGIN, y: area.bottom - PINCH_INNER_MARGIN };
    const inner = { x: outer.x + offsetX, y: outer.y - offsetY };
    const travel = Math.hypot(offsetX, offsetY);
    const ms = speed > 0 ? Math.trunc((1000 * travel) / speed) : 0;
    const mid = center(area);
    const under = this.device.ui.hitTest(mid.x, mid.y, () => true);
    const [from, to] = kind === 'open' ? [inner, outer] : [outer, inner];
    if (this.device.ui.blocked(`uia2 pinch ${kind}`)) return null;
    await this.device.clock.sleep(ms + (kind === 'close' ? 250 : 0));
    this.device.log(
      'input',
      `uia2 pinch ${kind} over ${under ? under.key : 'nothing'}: fingers (${from.x},${from.y})->(${to.x},${to.y}) and its mirror, ${travel.toFixed(0)} px each in ${ms} ms; nothing on this screen zooms`,
    );
    return null;
  }

  /** `origin`'s bounds less the gesture margins, else `area` (RectModel.toNativeRect), else the handler's message. */
  private area(session: Session, body: Json, missing: string): Rect {
    const originId = elementId(body);
    if (originId !== null) return withMargins(serverBounds(cachedElement(session, this.device.ui, originId)));
    if (body.area === undefined || body.area === null) throw illegalArgument(missing);
    const a = body.area as Json;
    const field = (name: string): number => {
      const v = a[name];
      if (v === undefined || v === null)
        throw illegalArgument(`RectModel: The mandatory field '${name}' is not present in JSON`);
      return Math.trunc(Number(v));
    };
    const [top, left, w, h] = [field('top'), field('left'), field('width'), field('height')];
    if (w < 0) throw illegalArgument('Rectangle width must not be negative');
    if (h < 0) throw illegalArgument('Rectangle height must not be negative');
    return { left, top, right: left + w, bottom: top + h };
  }

  /** `speed` as given (never negative), else UiObject2's default times the density, truncated. */
  private speed(body: Json, kind: keyof typeof DEFAULT_SPEED_DP): number {
    if (body.speed === undefined || body.speed === null)
      return Math.trunc((DEFAULT_SPEED_DP[kind] * this.device.ui.dpi()) / 160);
    const speed = Math.trunc(Number(body.speed));
    if (speed < 0) throw illegalArgument('Speed cannot be negative');
    return speed;
  }

  /** A locator's element, found and not cached (BaseGesture.locateElement); none: `no such element`. */
  private located(session: Session, locator: Json): UiElement {
    const context = typeof locator.context === 'string' && locator.context !== '' ? locator.context : null;
    const found = this.elements.locateAll(session, locator, context)[0];
    if (!found) throw noSuchElement();
    return found;
  }

  /** Performs one finger's stroke and says whether the list under it moved and whether it stopped at an end. */
  private async stroke(stroke: TouchStroke, reason: string): Promise<{ moved: boolean; atEnd: boolean }> {
    const start = stroke.samples[0] as TouchSample;
    const scroller = this.device.ui.hitTest(start.x, start.y, (e) => e.scrollable);
    await this.device.clock.sleep(stroke.up.t);
    const moved = this.device.ui.drag(stroke, reason);
    await this.idle.waitForIdle(reason);
    if (!scroller) return { moved, atEnd: !moved };
    const now = flatten(this.device.ui.tree()).find((e) => e.key === scroller.key);
    const position = now ? this.device.ui.scrollPosition(now.key) : null;
    const atEnd = position === null || position.offset <= 0 || position.offset >= position.max;
    return { moved, atEnd };
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ElementModel.getUnifiedId of `origin`, or null. */
function elementId(body: Json): string | null {
  if (!isObject(body.origin)) return null;
  const id = referencedId(body.origin);
  return id === '' ? null : id;
}

function optionalPoint(body: Json, name: string, model: string): Point | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (!isObject(v)) throw illegalArgument(`${model}: The mandatory field '${name}' is not present in JSON`);
  const coordinate = (c: 'x' | 'y'): number => {
    if (v[c] === undefined || v[c] === null)
      throw illegalArgument(`PointModel: The mandatory field '${c}' is not present in JSON`);
    // PointModel.toNativePoint: Double.intValue(), a truncation.
    return Math.trunc(Number(v[c]));
  };
  return { x: coordinate('x'), y: coordinate('y') };
}

function requiredPoint(body: Json, name: string, model: string): Point {
  const p = optionalPoint(body, name, model);
  if (p === null) throw illegalArgument(`${model}: The mandatory field '${name}' is not present in JSON`);
  return p;
}

function requiredNumber(body: Json, name: string, model: string): number {
  const v = body[name];
  if (v === undefined || v === null)
    throw illegalArgument(`${model}: The mandatory field '${name}' is not present in JSON`);
  return Number(v);
}

/** *Model.getDirection: Direction.valueOf(direction.toUpperCase()), else the model's own message. */
function requiredDirection(body: Json, model: string, gesture: string): Direction {
  const v = body.direction;
  if (v === undefined || v === null)
    throw illegalArgument(`${model}: The mandatory field 'direction' is not present in JSON`);
  const d = String(v).toUpperCase();
  if (d === 'UP' || d === 'DOWN' || d === 'LEFT' || d === 'RIGHT') return d;
  throw illegalArgument(`${gesture} direction must be one of [LEFT, RIGHT, UP, DOWN]`);
}

/** GestureController.checkPercent. */
function checkPercent(percent: number): number {
  if (!(percent >= 0 && percent <= 1)) throw illegalArgument('Percent must be between 0.0f and 1.0f');
  return percent;
}

function reverse(d: Direction): Direction {
  return d === 'UP' ? 'DOWN' : d === 'DOWN' ? 'UP' : d === 'LEFT' ? 'RIGHT' : 'LEFT';
}

const width = (r: Rect): number => r.right - r.left;
const height = (r: Rect): number => r.bottom - r.top;

/** PercentMargins.apply: each side moves in by (int)(size × 10 %). */
function withMargins(r: Rect): Rect {
  const dx = Math.trunc(width(r) * GESTURE_MARGIN);
  const dy = Math.trunc(height(r) * GESTURE_MARGIN);
  return { left: r.left + dx, top: r.top + dy, right: r.right - dx, bottom: r.bottom - dy };
}

function scaled(dp: number, dpi: number): number {
  return Math.trunc((dp * dpi) / 160 + 0.5);
}

/** Gestures.swipeRect: from one edge's midpoint towards the other, `percent` of the way (Rect.centerX/Y). */
function swipeRect(area: Rect, direction: Direction, percent: number, speed: number, pauseMs: number): TouchStroke {
  const cx = (area.left + area.right) >> 1;
  const cy = (area.top + area.bottom) >> 1;
  let start: Point;
  let end: Point;
  if (direction === 'LEFT') {
    start = { x: area.right, y: cy };
    end = { x: area.right - Math.trunc(width(area) * percent), y: cy };
  } else if (direction === 'RIGHT') {
    start = { x: area.left, y: cy };
    end = { x: area.left + Math.trunc(width(area) * percent), y: cy };
  } else if (direction === 'UP') {
    start = { x: cx, y: area.bottom };
    end = { x: cx, y: area.bottom - Math.trunc(height(area) * percent) };
  } else {
    start = { x: cx, y: area.top };
    end = { x: cx, y: area.top + Math.trunc(height(area) * percent) };
  }
  return strokeOf(start, end, speed, 0, pauseMs);
}

/**
 * PointerGesture: DOWN at `from`, held `holdMs`, then a move to `to` lasting 1000 × distance / speed
 * ms (PointerGesture.move) with a MOVE every 5 ms, then `pauseMs` still before the UP.
 */
function strokeOf(from: Point, to: Point, speed: number, holdMs: number, pauseMs: number): TouchStroke {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const moveMs = speed > 0 ? Math.trunc((1000 * distance) / speed) : 0;
  const samples: TouchSample[] = [{ t: 0, x: from.x, y: from.y }];
  for (let t = MOVE_STEP_MS; t <= moveMs; t += MOVE_STEP_MS) {
    const a = t / moveMs;
    samples.push({
      t: holdMs + t,
      x: Math.round(from.x + (to.x - from.x) * a),
      y: Math.round(from.y + (to.y - from.y) * a),
    });
  }
  if (moveMs > 0 && (samples[samples.length - 1]?.t ?? 0) < holdMs + moveMs)
    samples.push({ t: holdMs + moveMs, x: to.x, y: to.y });
  return { samples, up: { t: Math.max(1, holdMs + moveMs + pauseMs), x: to.x, y: to.y } };
}
