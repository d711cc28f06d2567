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
 *   In this mode only a third of the dumps are tapped on a given run (`tapsDump`): the dumps whose
 *   place in the sorted list is the part's number modulo 3, the part being the UTC day's number
 *   (days since 1970) modulo 3, so three consecutive days' runs tap every dump; the other dumps are
 *   still read through the stack and every entry checked for its ref. The run prints its part, and
 *   ANDROID_MCP_E2E_SWEEP_PART=0|1|2 runs a given one again (a failure seen on another day).
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

/** How many parts the stratified run's dumps are dealt into: one part is tapped per run. */
export const SWEEP_PARTS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The part of the dumps the stratified run taps: ANDROID_MCP_E2E_SWEEP_PART when set (0, 1 or 2, to
 * run a part again), else the UTC day's number modulo SWEEP_PARTS (three consecutive days tap every
 * dump; the same day, the same part, so a rerun sees what the failing run saw).
 */
export function sweepPartFrom(env: NodeJS.ProcessEnv, nowMs: number): number {
  const set = env.ANDROID_MCP_E2E_SWEEP_PART;
  if (set !== undefined && set !== '') {
    const part = Number(set);
    if (!Number.isInteger(part) || part < 0 || part >= SWEEP_PARTS)
      throw new Error(`ANDROID_MCP_E2E_SWEEP_PART=${set}: give 0 to ${SWEEP_PARTS - 1}, or leave it unset`);
    return part;
  }
  return Math.floor(nowMs / DAY_MS) % SWEEP_PARTS;
}

/** Whether the dump at place `index` of the sorted list is tapped: every dump, except in the stratified run (its part). */
export function tapsDump(mode: SweepMode, index: number, part: number): boolean {
  return mode.kind !== 'stratified' || index % SWEEP_PARTS === part;
}
