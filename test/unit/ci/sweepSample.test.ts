/**
 * The fixtures sweep's choice of taps (test/e2e/support/sweepSample.ts): CI's stratified run taps
 * one entry of every kind a dump offers and every refused one, in the taps' order, rotating which
 * one of a kind with the dump's place; the full run taps all; a limit picks evenly.
 */
import { describe, expect, it } from 'vitest';
import { stratumOf, sweepModeFrom, tapsFor, type SweepTap } from '../../e2e/support/sweepSample.js';

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
