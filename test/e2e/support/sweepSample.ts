/**
 * Which taps of one dump the fixtures sweep makes (test/e2e/fixturesSweep.test.ts).
 *
 * - `full` (ANDROID_MCP_E2E_SWEEP=full, `npm run test:sweep`, the nightly workflow): every tap.
 * - `stratified` (the default, what CI's `npm test` runs): one tap per kind of tap on the dump. A
 *   kind (stratum) is how the tap is sent (ref, selector, refused) × the selector's form (which keys:
 *   id, text, content_desc, text_contains, input_hint, within…) × the entry's role × its flags
 *   (ambiguous, disambiguated, disabled, under the keyboard). So every dump is still read and every
 *   kind of entry it offers is tapped through the whole stack; what the full run adds is the other
 *   entries of a kind already tapped. Every refused tap is made (they click nothing). Which one of a
 *   kind rotates with the dump's place in the list, so that across the dumps the first, middle and
 *   last entries of a kind all get their turn.
 * - `limit` (ANDROID_MCP_E2E_SWEEP_LIMIT=N, a quick local run): at most N taps, chosen evenly.
 *
 * The taps keep their order (the refs the sweep holds depend on the afters of the taps before).
 */
import { selectorOf, type WireAction } from './summary.js';

export type TapBy = 'ref' | 'selector' | 'refused';

export interface SweepTap {
  readonly entry: WireAction;
  readonly by: TapBy;
}

export type SweepMode =
  { readonly kind: 'full' } | { readonly kind: 'stratified' } | { readonly kind: 'limit'; readonly taps: number };

/** The sweep's mode from the environment: a limit wins, then `full`, else stratified. */
export function sweepModeFrom(env: NodeJS.ProcessEnv): SweepMode {
  const limit = Number(env.ANDROID_MCP_E2E_SWEEP_LIMIT ?? '0');
  if (Number.isInteger(limit) && limit > 0) return { kind: 'limit', taps: limit };
  return env.ANDROID_MCP_E2E_SWEEP === 'full' ? { kind: 'full' } : { kind: 'stratified' };
}

/** The kind of a tap: how it is sent, the selector's keys, the role, the flags. */
export function stratumOf(tap: SweepTap): string {
  const { entry } = tap;
  const selector = selectorOf(entry);
  const keys = selector === undefined ? 'no-selector' : Object.keys(selector).sort().join('+');
  const flags = [
    entry.ambiguous ? 'ambiguous' : '',
    entry.disambiguated ? 'disambiguated' : '',
    entry.enabled === false ? 'disabled' : '',
    entry.covered_by_keyboard ? 'under-keyboard' : '',
    entry.checked !== undefined ? 'checkable' : '',
  ].filter((flag) => flag !== '');
  return [tap.by, keys, entry.role ?? 'no-role', ...flags].join('|');
}

/** Every k-th item so that at most `n` remain, first and last included (deterministic). */
export function evenly<T>(items: readonly T[], n: number): readonly T[] {
  if (n <= 0 || items.length <= n) return items;
  const out: T[] = [];
  for (let i = 0; i < n; i += 1) out.push(items[Math.round((i * (items.length - 1)) / (n - 1 || 1))] as T);
  return [...new Set(out)];
}

/** One tap per stratum, the `turn`-th of its kind (modulo their number), and every refused one, in the taps' own order. */
export function stratified(taps: readonly SweepTap[], turn: number): readonly SweepTap[] {
  const byStratum = new Map<string, SweepTap[]>();
  for (const tap of taps) {
    const key = stratumOf(tap);
    const group = byStratum.get(key);
    if (group === undefined) byStratum.set(key, [tap]);
    else group.push(tap);
  }
  const chosen = new Set<SweepTap>();
  for (const group of byStratum.values()) chosen.add(group[turn % group.length]!);
  // A refused tap clicks nothing and costs one call: all of them (a handful in the whole corpus).
  for (const tap of taps) if (tap.by === 'refused') chosen.add(tap);
  return taps.filter((tap) => chosen.has(tap));
}

/** The taps of the dump at place `turn` of the sweep's list that `mode` makes. */
export function tapsFor(taps: readonly SweepTap[], mode: SweepMode, turn: number): readonly SweepTap[] {
  switch (mode.kind) {
    case 'full':
      return taps;
    case 'limit':
      return evenly(taps, mode.taps);
    case 'stratified':
      return stratified(taps, turn);
  }
}
