/**
 * The input routes: W3C actions (pointer and key sources), the long-click gesture and key codes,
 * timed and injected as the real server does.
 */
import { center } from '../device/geometry.js';
import type { TouchSample } from '../device/touch.js';
import { serverBounds } from './bounds.js';
import type { Uia2Device } from './device.js';
import { illegalArgument } from './errors.js';
import { cachedElement, referencedId, type Json, type Session } from './session.js';

/** ActionsConstants.EVENT_INJECTION_DELAY_MS: the real server injects on a 20 ms grid. */
const INJECTION_STEP_MS = 20;

/** ActionsTokenizer.alignDuration: 0 stays 0, anything else rounds up to the 20 ms grid. */
function alignToInjectionStep(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) return 0;
  return Math.ceil(ms / INJECTION_STEP_MS) * INJECTION_STEP_MS;
}

export class ActionRoutes {
  constructor(private readonly device: Uia2Device) {}

  /**
   * POST /appium/gestures/long_click, as appium-uiautomator2-server's LongClick gesture does it:
   * `origin` names a cached element (else `offset` is a screen point), `offset` is relative to the
   * element's top-left corner, and the touch is held for `duration` ms, by default exactly
   * ViewConfiguration.getLongPressTimeout() (GestureController.longClick). The device decides
   * from the hold whether it became a long click (DeviceUi.press).
   */
  async longClick(session: Session, body: Json): Promise<null> {
    const origin = body.origin && typeof body.origin === 'object' ? (body.origin as Json) : null;
    const id = origin ? referencedId(origin) : '';
    const offset = body.offset && typeof body.offset === 'object' ? (body.offset as Json) : null;
    const duration =
      body.duration === undefined || body.duration === null
        ? this.device.system.longPressTimeoutMs()
        : Number(body.duration);
    if (!Number.isFinite(duration) || duration < 0) throw illegalArgument('Long click duration cannot be negative');
    const element = id ? cachedElement(session, this.device.ui, id) : null;
    let point: { x: number; y: number };
    const bounds = element ? serverBounds(element) : null;
    if (bounds && offset) point = { x: bounds.left + Number(offset.x ?? 0), y: bounds.top + Number(offset.y ?? 0) };
    else if (bounds) point = center(bounds);
    else if (offset) point = { x: Number(offset.x ?? 0), y: Number(offset.y ?? 0) };
    else throw illegalArgument('Long click offset coordinates must be provided if element is not set');
    // The server's thread is busy for the whole hold; the touch comes up at its end.
    await this.device.clock.sleep(duration);
    this.device.ui.press(
      Math.round(point.x),
      Math.round(point.y),
      duration,
      'uia2-long-click',
      element && !offset ? element : null,
    );
    return null;
  }

  /** A key the device does not handle as a key types its character, when it has one (letters, digits, space). */
  pressKeycode(code: number): void {
    if (this.device.ui.pressKey(code, 'uia2 press_keycode')) return;
    if (code >= 29 && code <= 54) this.device.ui.typeText(String.fromCharCode(97 + code - 29), 'uia2 press_keycode');
    else if (code >= 7 && code <= 16) this.device.ui.typeText(String(code - 7), 'uia2 press_keycode');
    else if (code === 62) this.device.ui.typeText(' ', 'uia2 press_keycode');
  }

  /**
   * W3C actions, timed as the real server's ActionsTokenizer injects them: durations rounded up to
   * 20 ms steps, a MOVE every 20 ms along a pointerMove (the first one repeating its start point),
   * nothing during a pause. A pointer that goes down and up near one point taps it; one that
   * travels is a stroke the screen drags (and maybe flings) with.
   */
  actions(session: Session, body: Json): null {
    const sources = Array.isArray(body.actions) ? (body.actions as Json[]) : [];
    for (const source of sources) {
      const steps = Array.isArray(source.actions) ? (source.actions as Json[]) : [];
      if (source.type === 'key') {
        for (const step of steps) {
          if (step.type !== 'keyDown' || typeof step.value !== 'string') continue;
          const v = step.value;
          if (v === '\uE007' || v === '\uE006') this.device.ui.pressKey(66, 'uia2 actions');
          else if (v === '\uE003') this.device.ui.pressKey(67, 'uia2 actions');
          else if (v.codePointAt(0) !== undefined && (v.codePointAt(0) ?? 0) < 0xe000)
            this.device.ui.typeText(v, 'uia2 actions');
        }
        continue;
      }
      if (source.type === 'pointer') this.pointer(session, steps);
    }
    return null;
  }

  private pointer(session: Session, steps: readonly Json[]): void {
    let t = 0;
    let x = 0;
    let y = 0;
    let downAt = -1;
    let upAt = -1;
    let samples: TouchSample[] | null = null;
    let travelled = 0;
    for (const step of steps) {
      if (step.type === 'pause') {
        t += alignToInjectionStep(Number(step.duration ?? 0));
      } else if (step.type === 'pointerMove') {
        const target = this.moveTarget(session, step, x, y);
        const duration = alignToInjectionStep(Number(step.duration ?? 0));
        if (samples && duration >= INJECTION_STEP_MS) {
          const first = t === downAt || t === upAt ? t + INJECTION_STEP_MS : t;
          const count = Math.floor((t + duration - first) / INJECTION_STEP_MS);
          samples.push({ t: first, x: count <= 1 ? target.x : x, y: count <= 1 ? target.y : y });
          for (let k = 2; k <= count; k++) {
            samples.push({
              t: first + (k - 1) * INJECTION_STEP_MS,
              x: x + ((target.x - x) * k) / count,
              y: y + ((target.y - y) * k) / count,
            });
          }
        }
        t += duration;
        x = target.x;
        y = target.y;
        const origin = samples?.[0];
        if (origin) travelled = Math.max(travelled, Math.hypot(x - origin.x, y - origin.y));
      } else if (step.type === 'pointerDown') {
        samples = [{ t, x, y }];
        downAt = t;
        travelled = 0;
      } else if (step.type === 'pointerUp' && samples) {
        const origin = samples[0] as TouchSample;
        // Held in place: a click, or a long click once the hold passes the long-press timeout (DeviceUi.press).
        if (travelled < 20) this.device.ui.press(origin.x, origin.y, t - downAt, 'w3c-actions');
        else this.device.ui.drag({ samples, up: { t, x, y } }, 'uia2 actions');
        samples = null;
        upAt = t;
      }
    }
  }

  private moveTarget(session: Session, step: Json, x: number, y: number): { x: number; y: number } {
    const origin = step.origin;
    let nx = Number(step.x ?? 0);
    let ny = Number(step.y ?? 0);
    if (origin === 'pointer') {
      nx += x;
      ny += y;
    } else if (origin && typeof origin === 'object') {
      const c = center(serverBounds(cachedElement(session, this.device.ui, referencedId(origin as Json))));
      nx += c.x;
      ny += c.y;
    }
    return { x: Math.round(nx), y: Math.round(ny) };
  }
}
