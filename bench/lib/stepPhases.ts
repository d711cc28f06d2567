/**
 * Where one step of this harness spends its time, from the intervals the timed adb wrapper and the
 * timed Appium proxy recorded while the call ran (lib/timedAdb.ts, lib/timedProxy.ts). The step is
 * cut at its action (the request that acts on the device: a click, set text, a touch path, a key):
 *
 * - before: from the call to the action (the lock check's `dumpsys window`, the find, the element reads);
 * - action: the acting requests themselves;
 * - after: from the action to the answer, and inside it the union of the evidence capture
 *   (`screencap`), of the read of `after` (the page source) and of the settle reads (`dumpsys
 *   window` and `power`), each on its own (they overlap, so they do not add up to `after`);
 * - own: the call's time in no adb process and no Appium request: the harness's work (the find's
 *   planning, the PNG encoding, the summary, the MCP framing) and its process starts.
 */
import { coveredMs } from './timedProxy.js';
import type { Interval } from './timedAdb.js';

export interface StepPhases {
  readonly total: number;
  readonly before: number;
  readonly action: number;
  readonly after: number;
  readonly capture: number;
  readonly read: number;
  readonly settle: number;
  readonly own: number;
}

export const PHASE_NAMES = ['total', 'before', 'action', 'after', 'capture', 'read', 'settle', 'own'] as const;

/** A request that acts: the UiAutomator2 routes for a click, text, a touch path, Back, a key or a gesture. */
export function isActing(what: string): boolean {
  if (!/^POST /.test(what)) return false;
  return /\/element\/[^/]+\/(click|value|clear)$|\/actions$|\/back$|\/appium\/(device\/press_keycode|gestures\/)|\/execute\/sync$|\/orientation$/.test(
    what,
  );
}

const isCapture = (what: string): boolean => /\bscreencap\b/.test(what);
const isSource = (what: string): boolean => /^GET \/session\/[^/]+\/source$/.test(what);
const isSettle = (what: string): boolean => /\bdumpsys (window|power)\b/.test(what);

/** The phases of a call that ran from `from` to `to` (epoch ms), from every interval recorded meanwhile. */
export function phasesOf(intervals: readonly Interval[], from: number, to: number): StepPhases {
  const inside = intervals.filter((i) => i.end > from && i.start < to);
  const acting = inside.filter((i) => isActing(i.what));
  const total = to - from;
  const own = total - coveredMs(inside, from, to);
  if (acting.length === 0) return { total, before: total, action: 0, after: 0, capture: 0, read: 0, settle: 0, own };
  const actStart = Math.min(...acting.map((i) => i.start));
  const actEnd = Math.max(...acting.map((i) => i.end));
  const tail = (pick: (what: string) => boolean): number =>
    coveredMs(
      inside.filter((i) => pick(i.what)),
      actEnd,
      to,
    );
  return {
    total,
    before: actStart - from,
    action: actEnd - actStart,
    after: to - actEnd,
    capture: tail(isCapture),
    read: tail(isSource),
    settle: tail(isSettle),
    own,
  };
}
