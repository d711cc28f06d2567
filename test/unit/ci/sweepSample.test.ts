/**
 * The fixtures sweep's choice of taps (test/e2e/support/sweepSample.ts): CI's stratified run taps
 * one entry of every kind a dump offers and every refused one, in the taps' order, rotating which
 * one of a kind with the dump's place; the full run taps all; a limit picks evenly.
 */
import { describe, expect, it } from 'vitest';
import {
  stratumOf,
  sweepModeFrom,
  sweepPartFrom,
  tapsDump,
  tapsFor,
  type SweepTap,
} from '../../e2e/support/sweepSample.js';

const taps: SweepTap[] = [
  { by: 'ref', entry: { ref: 'e1', text: 'One', role: 'button' } },
  { by: 'ref', entry: { ref: 'e2', text: 'Two', role: 'button' } },
  { by: 'ref', entry: { ref: 'e3', text: 'Three', role: 'button' } },
  { by: 'ref', entry: { ref: 'e4', content_desc: 'Back', role: 'button' } },
  { by: 'ref', entry: { ref: 'e5', text: 'Row', role: 'button', ambiguous: true } },
  { by: 'selector', entry: { ref: 'e1', text: 'One', role: 'button' } },
  { by: 'selector', entry: { ref: 'e2', text: 'Two', role: 'button' } },
  { by: 'selector', entry: { ref: 'e6', text: 'Wi-Fi', role: 'switch', checked: true } },
  { by: 'refused', entry: { text: 'Clock', not_actionable: 'under_status_bar' } },
  { by: 'refused', entry: { text: 'Home', not_actionable: 'under_navigation_bar' } },
];

const refsOf = (chosen: readonly SweepTap[]): string[] =>
  chosen.map((t) => `${t.by}:${t.entry.ref ?? t.entry.text ?? ''}`);

describe('the fixtures sweep taps', () => {
  it('one of each kind, every refused one, in order; which one of a kind rotates with the dump', () => {
    expect(refsOf(tapsFor(taps, { kind: 'stratified' }, 0))).toEqual([
      'ref:e1',
      'ref:e4',
      'ref:e5',
      'selector:e1',
      'selector:e6',
      'refused:Clock',
      'refused:Home',
    ]);
    expect(refsOf(tapsFor(taps, { kind: 'stratified' }, 1))).toEqual([
      'ref:e2',
      'ref:e4',
      'ref:e5',
      'selector:e2',
      'selector:e6',
      'refused:Clock',
      'refused:Home',
    ]);
    expect(refsOf(tapsFor(taps, { kind: 'stratified' }, 2)).slice(0, 1)).toEqual(['ref:e3']);
  });

  it('tells kinds apart by how they are sent, the selector form, the role and the flags', () => {
    const kinds = new Set(taps.map(stratumOf));
    expect(kinds.size).toBe(6); // the two refused ones are one kind
    expect(stratumOf(taps[0]!)).toBe(stratumOf(taps[1]!));
    expect(stratumOf(taps[0]!)).not.toBe(stratumOf(taps[5]!));
  });

  it('the full run taps all; a limit picks evenly, first and last included', () => {
    expect(tapsFor(taps, { kind: 'full' }, 3)).toEqual(taps);
    expect(refsOf(tapsFor(taps, { kind: 'limit', taps: 2 }, 0))).toEqual(['ref:e1', 'refused:Home']);
  });

  it('reads its mode from the environment: a limit, else full, else stratified', () => {
    expect(sweepModeFrom({})).toEqual({ kind: 'stratified' });
    expect(sweepModeFrom({ ANDROID_MCP_E2E_SWEEP: 'full' })).toEqual({ kind: 'full' });
    expect(sweepModeFrom({ ANDROID_MCP_E2E_SWEEP: 'full', ANDROID_MCP_E2E_SWEEP_LIMIT: '5' })).toEqual({
      kind: 'limit',
      taps: 5,
    });
  });
});

describe('the dumps the stratified run taps', () => {
  const day = 24 * 60 * 60 * 1000;

  it('a third of them, the part turning with the UTC day: three consecutive days tap every dump once', () => {
    const parts = [0, 1, 2].map((d) => sweepPartFrom({}, (20_000 + d) * day + 5));
    expect([...parts].sort()).toEqual([0, 1, 2]);
    // The same day gives the same part, from its first millisecond to its last.
    expect(sweepPartFrom({}, 20_000 * day)).toBe(sweepPartFrom({}, 20_001 * day - 1));
    for (const [d, part] of parts.entries()) {
      const tapped = Array.from({ length: 9 }, (_, index) => index).filter((index) =>
        tapsDump({ kind: 'stratified' }, index, part),
      );
      expect(tapped, `day ${d}`).toEqual([part, part + 3, part + 6]);
    }
  });

  it('ANDROID_MCP_E2E_SWEEP_PART picks the part (a run of another day again); a wrong one is refused', () => {
    expect(sweepPartFrom({ ANDROID_MCP_E2E_SWEEP_PART: '2' }, 20_000 * day)).toBe(2);
    expect(sweepPartFrom({ ANDROID_MCP_E2E_SWEEP_PART: '0' }, 20_001 * day)).toBe(0);
    expect(() => sweepPartFrom({ ANDROID_MCP_E2E_SWEEP_PART: '3' }, 0)).toThrow(/give 0 to 2/);
    expect(() => sweepPartFrom({ ANDROID_MCP_E2E_SWEEP_PART: 'x' }, 0)).toThrow(/ANDROID_MCP_E2E_SWEEP_PART=x/);
  });

  it('the full run and a limit tap every dump', () => {
    for (const index of [0, 1, 2, 47]) {
      expect(tapsDump({ kind: 'full' }, index, 0)).toBe(true);
      expect(tapsDump({ kind: 'limit', taps: 3 }, index, 1)).toBe(true);
    }
    expect(tapsDump({ kind: 'stratified' }, 4, 1)).toBe(true);
    expect(tapsDump({ kind: 'stratified' }, 4, 0)).toBe(false);
  });
});
