import { describe, expect, it } from 'vitest';
import { obstructionsOf, planTap } from '../../../src/domain/gestures/tapPoint.js';

const BARS = {
  status: { left: 0, top: 0, right: 1080, bottom: 63 },
  navigation: { left: 0, top: 2274, right: 1080, bottom: 2400 },
};
const NO_IME = { visible: false, frame: null };
const IME = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
const rect = (left: number, top: number, right: number, bottom: number) => ({ left, top, right, bottom });

describe('planTap (a tap lands on the element, not on a bar or the keyboard)', () => {
  it('a free centre is the driver’s own click', () => {
    expect(planTap(rect(63, 1000, 1017, 1200), obstructionsOf(NO_IME, BARS))).toEqual({ kind: 'centre' });
    // Unknown bars: nothing is in the way.
    expect(planTap(rect(0, 2232, 1080, 2400), obstructionsOf(NO_IME, undefined))).toEqual({ kind: 'centre' });
  });

  it('a centre under the navigation bar: the middle of the part above it', () => {
    expect(planTap(rect(0, 2232, 1080, 2400), obstructionsOf(NO_IME, BARS))).toEqual({
      kind: 'point',
      point: { x: 540, y: 2253 },
      coveredBy: 'navigation_bar',
    });
  });

  it('a centre under the status bar: the middle of the part below it', () => {
    expect(planTap(rect(0, 0, 147, 105), obstructionsOf(NO_IME, BARS))).toEqual({
      kind: 'point',
      point: { x: 73, y: 84 },
      coveredBy: 'status_bar',
    });
  });

  it('the keyboard counts too: the part above the IME frame, never inside it', () => {
    expect(planTap(rect(0, 1400, 1080, 2000), obstructionsOf(IME, BARS))).toEqual({
      kind: 'point',
      point: { x: 540, y: 1458 },
      coveredBy: 'keyboard',
    });
  });

  it('an element entirely under the bar (or the keyboard) has nothing to press', () => {
    expect(planTap(rect(300, 2300, 780, 2390), obstructionsOf(NO_IME, BARS))).toEqual({
      kind: 'hidden',
      coveredBy: 'navigation_bar',
    });
    expect(planTap(rect(0, 1600, 1080, 1800), obstructionsOf(IME, BARS))).toEqual({
      kind: 'hidden',
      coveredBy: 'keyboard',
    });
  });

  it('a tall element cut by both bars: its longest free strip', () => {
    expect(planTap(rect(0, 0, 1080, 2400), obstructionsOf(NO_IME, BARS))).toEqual({ kind: 'centre' });
    const plan = planTap(
      rect(0, 0, 1080, 2300),
      obstructionsOf(NO_IME, { ...BARS, navigation: rect(0, 1100, 1080, 1250) }),
    );
    expect(plan).toEqual({ kind: 'point', point: { x: 540, y: 1775 }, coveredBy: 'navigation_bar' });
  });

  it('a navigation bar on the side (landscape, three buttons): the part beside it', () => {
    const side = { status: rect(0, 0, 2400, 63), navigation: rect(2274, 0, 2400, 1080) };
    expect(planTap(rect(2200, 500, 2400, 700), obstructionsOf(NO_IME, side))).toEqual({
      kind: 'point',
      point: { x: 2237, y: 600 },
      coveredBy: 'navigation_bar',
    });
  });
});
