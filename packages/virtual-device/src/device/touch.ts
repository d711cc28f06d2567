/**
 * A finger on a list, as Android's views see it. A stroke is the DOWN sample, every
 * MOVE sample and the lift; a RecyclerView follows the finger once it has passed the touch slop,
 * and when it lifts with a velocity of at least the minimum fling velocity the list keeps going,
 * decelerating. Everything here is deterministic: the same stroke gives the same travel.
 *
 * Constants and formulas, read from the real sources (docs/internals/device-quirks.md cites them):
 * - ViewConfiguration: TOUCH_SLOP 8 dp, MINIMUM_FLING_VELOCITY 50 dp/s, MAXIMUM_FLING_VELOCITY
 *   8000 dp/s, SCROLL_FRICTION 0.015; RecyclerView scales them with the display density.
 * - RecyclerView.onTouchEvent: the first drag loses the touch slop; on ACTION_UP,
 *   fling(velocity) does nothing under mMinFlingVelocity and clamps at mMaxFlingVelocity.
 * - VelocityTracker (LSQ2): a quadratic least-squares fit over the samples at most 100 ms older
 *   than the newest; ACTION_UP adds no sample. A pause before the lift is therefore invisible on
 *   older releases, which keep the last velocity; newer ones also clear it after 40 ms without a
 *   move. The device applies the older rule at every API level: never kinder than a real phone.
 * - OverScroller's spline: distance = friction · physicalCoeff · exp(decel / (decel − 1) · l),
 *   l = ln(0.35 · |v| / (friction · physicalCoeff)), decel = ln 0.78 / ln 0.9,
 *   physicalCoeff = 9.80665 (g) · 39.37 (inch/m) · ppi · 0.84, where ppi is the display's dpi.
 */

export interface TouchSample {
  /** Milliseconds from the start of the gesture. */
  readonly t: number;
  readonly x: number;
  readonly y: number;
}

export interface TouchStroke {
  /** ACTION_DOWN first, then each ACTION_MOVE, in time order. */
  readonly samples: readonly TouchSample[];
  /** ACTION_UP. */
  readonly up: TouchSample;
}

export const TOUCH_SLOP_DP = 8;
export const MINIMUM_FLING_VELOCITY_DP = 50;
export const MAXIMUM_FLING_VELOCITY_DP = 8000;
const SCROLL_FRICTION = 0.015;
const VELOCITY_HORIZON_MS = 100;
const INFLEXION = 0.35;
const DECELERATION_RATE = Math.log(0.78) / Math.log(0.9);
const GRAVITY_EARTH = 9.80665;

/** dp → px the way ViewConfiguration's getScaled… do it (density = dpi / 160). */
export function scaledPx(dp: number, dpi: number): number {
  return Math.trunc((dp * dpi) / 160 + 0.5);
}

/** Which coordinate a list follows: `y` for a vertical list, `x` for a horizontal one. */
export type Axis = 'x' | 'y';

/** The finger's vertical velocity at the lift, px/s (positive: moving down the screen). */
export function releaseVelocityY(stroke: TouchStroke): number {
  return releaseVelocity(stroke, 'y');
}

/** The finger's velocity along `axis` at the lift, px/s (positive: moving down, or right). */
export function releaseVelocity(stroke: TouchStroke, axis: Axis): number {
  const newest = stroke.samples[stroke.samples.length - 1];
  if (!newest) return 0;
  const recent = stroke.samples.filter((s) => newest.t - s.t <= VELOCITY_HORIZON_MS);
  if (recent.length < 2) return 0;
  // Times in seconds relative to the newest sample (t ≤ 0); the slope at t = 0 is the velocity.
  const ts = recent.map((s) => (s.t - newest.t) / 1000);
  const ys = recent.map((s) => s[axis]);
  return recent.length === 2 ? linearSlope(ts, ys) : quadraticSlope(ts, ys);
}

function linearSlope(ts: readonly number[], ys: readonly number[]): number {
  const n = ts.length;
  const st = ts.reduce((a, b) => a + b, 0);
  const sy = ys.reduce((a, b) => a + b, 0);
  const stt = ts.reduce((a, t) => a + t * t, 0);
  const sty = ts.reduce((a, t, i) => a + t * (ys[i] ?? 0), 0);
  const d = n * stt - st * st;
  return d === 0 ? 0 : (n * sty - st * sy) / d;
}

/** b of the least-squares y = a + b·t + c·t² (Cramer's rule on the normal equations); linear when singular. */
function quadraticSlope(ts: readonly number[], ys: readonly number[]): number {
  const sum = (f: (t: number, y: number) => number): number => ts.reduce((acc, t, i) => acc + f(t, ys[i] ?? 0), 0);
  const n = ts.length;
  const s1 = sum((t) => t);
  const s2 = sum((t) => t * t);
  const s3 = sum((t) => t * t * t);
  const s4 = sum((t) => t * t * t * t);
  const y0 = sum((_t, y) => y);
  const y1 = sum((t, y) => t * y);
  const y2 = sum((t, y) => t * t * y);
  const det3 = (m: readonly (readonly number[])[]): number => {
    const [[a, b, c], [d, e, f], [g, h, i]] = m as [
      [number, number, number],
      [number, number, number],
      [number, number, number],
    ];
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  };
  const m = [
    [n, s1, s2],
    [s1, s2, s3],
    [s2, s3, s4],
  ];
  const det = det3(m);
  if (Math.abs(det) < 1e-18) return linearSlope(ts, ys);
  return (
    det3([
      [n, y0, s2],
      [s1, y1, s3],
      [s2, y2, s4],
    ]) / det
  );
}

/** How far a fling at `velocity` px/s travels before it stops (OverScroller's spline), px. */
export function flingDistance(velocity: number, dpi: number): number {
  const physicalCoeff = GRAVITY_EARTH * 39.37 * dpi * 0.84;
  const l = Math.log((INFLEXION * Math.abs(velocity)) / (SCROLL_FRICTION * physicalCoeff));
  return SCROLL_FRICTION * physicalCoeff * Math.exp((DECELERATION_RATE / (DECELERATION_RATE - 1)) * l);
}

export interface ListTravel {
  /** Content travel while the finger was down (past the slop), px; positive: the content moved up (offset grows). */
  readonly drag: number;
  /** The release velocity, px/s, finger direction. */
  readonly velocity: number;
  /** Extra content travel after the lift, px, same sign convention as `drag`; 0 when it did not fling. */
  readonly fling: number;
}

/**
 * What a list under this stroke does along its axis: a vertical RecyclerView or ScrollView
 * (`y`), a horizontal RecyclerView or HorizontalScrollView (`x`). Both axes follow the same
 * rules: RecyclerView.onTouchEvent tests `canScrollHorizontally() && |dx| > touchSlop` exactly
 * as it tests dy, and HorizontalScrollView takes ViewConfiguration's touch slop and fling
 * velocities and flings with the same OverScroller as ScrollView (docs/internals/device-quirks.md).
 */
export function listTravel(stroke: TouchStroke, dpi: number, axis: Axis = 'y'): ListTravel {
  const down = stroke.samples[0];
  const last = stroke.samples[stroke.samples.length - 1];
  if (!down || !last) return { drag: 0, velocity: 0, fling: 0 };
  // Only MOVE events scroll; the finger moving down (right) pulls earlier content into view.
  const d = last[axis] - down[axis];
  const slop = scaledPx(TOUCH_SLOP_DP, dpi);
  const drag = Math.abs(d) > slop ? -Math.round(d - Math.sign(d) * slop) : 0;
  const velocity = releaseVelocity(stroke, axis);
  const speed = Math.min(Math.abs(velocity), scaledPx(MAXIMUM_FLING_VELOCITY_DP, dpi));
  const flings = drag !== 0 && speed >= scaledPx(MINIMUM_FLING_VELOCITY_DP, dpi);
  return { drag, velocity, fling: flings ? -Math.sign(velocity) * Math.round(flingDistance(speed, dpi)) : 0 };
}

/** `input swipe x1 y1 x2 y2 [ms]`: a straight line at constant speed, a MOVE every 5 ms, no pause before the lift. */
export function straightStroke(x1: number, y1: number, x2: number, y2: number, durationMs: number): TouchStroke {
  const samples: TouchSample[] = [{ t: 0, x: x1, y: y1 }];
  const duration = Math.max(0, durationMs);
  for (let t = 5; t < duration; t += 5) {
    const a = t / duration;
    samples.push({ t, x: Math.round(x1 + (x2 - x1) * a), y: Math.round(y1 + (y2 - y1) * a) });
  }
  // Input.java's loop ends at the duration; the UP carries the end point (and scrolls nothing itself).
  return { samples, up: { t: Math.max(duration, 1), x: x2, y: y2 } };
}
