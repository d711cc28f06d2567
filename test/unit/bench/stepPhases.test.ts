import { describe, expect, it } from 'vitest';
import { isActing, phasesOf } from '../../../bench/lib/stepPhases.js';

const at = (start: number, end: number, what: string) => ({ start, end, what });

describe('the bench cuts a step of this harness into its phases', () => {
  it('knows the acting requests from the reading ones', () => {
    expect(isActing('POST /session/abc/element/e1/click')).toBe(true);
    expect(isActing('POST /session/abc/element/e1/value')).toBe(true);
    expect(isActing('POST /session/abc/actions')).toBe(true);
    expect(isActing('POST /session/abc/back')).toBe(true);
    expect(isActing('POST /session/abc/elements')).toBe(false);
    expect(isActing('GET /session/abc/element/e1/attribute/bounds')).toBe(false);
    expect(isActing('DELETE /session/abc/actions')).toBe(false);
  });

  it('splits before, action and after at the action; capture, read and settle overlap inside after; own is the rest', () => {
    const intervals = [
      at(10, 60, '-s emulator-5554 shell dumpsys window'),
      at(70, 120, 'POST /session/abc/elements'),
      at(125, 150, 'GET /session/abc/element/e1/attribute/bounds'),
      at(160, 250, 'POST /session/abc/element/e1/click'),
      at(260, 600, '-s emulator-5554 exec-out screencap'),
      at(265, 300, '-s emulator-5554 shell dumpsys window'),
      at(305, 420, 'GET /session/abc/source'),
      at(310, 340, '-s emulator-5554 shell dumpsys power'),
      // Another call's request, before this one began: not counted.
      at(-50, -10, 'GET /session/abc/source'),
    ];
    const phases = phasesOf(intervals, 0, 700);
    expect(phases).toEqual({
      total: 700,
      before: 160,
      action: 90,
      after: 450,
      capture: 340,
      read: 115,
      settle: 35 + 30, // dumpsys window 265–300 and dumpsys power 310–340: two spans
      own: 700 - (50 + 50 + 25 + 90 + 340),
    });
  });

  it('a call with no acting request is all before', () => {
    const phases = phasesOf([at(0, 40, 'GET /session/abc/source')], 0, 100);
    expect(phases).toMatchObject({ total: 100, before: 100, action: 0, after: 0, own: 60 });
  });
});
