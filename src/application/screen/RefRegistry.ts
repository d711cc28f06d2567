/**
 * The refs of ui_get_tree answers: which element each ref names, for how long.
 *
 * - A ref is `e` + a base-36 serial that only grows while the server runs, so a ref string is
 *   given to one element only: an old ref can never name something new (docs/reference/summary.md, "Refs").
 * - The same element (same identity, src/domain/refs/refIdentity.ts) read again keeps its ref:
 *   an unchanged screen read twice gives the same refs.
 * - Life: a ref stays known while one of the last REF_GENERATIONS readings offered it; then it is
 *   forgotten and answers STALE_REF like a changed screen. Memory is therefore bounded by
 *   REF_GENERATIONS × MAX_ACTIONS records, whatever the server's uptime.
 * - Refs do not belong to a session: one read without a flow may be used inside a flow and the
 *   other way round, since every use checks the element again on the screen the action sees.
 */
import { identify, identityKey, type RefIdentity } from '../../domain/refs/refIdentity.js';
import { formatRef } from '../../domain/refs/refTarget.js';
import type { ScreenSummary } from '../../domain/tree/screen.js';
import type { ScreenReading } from './ScreenReader.js';

/** How many ui_get_tree readings back a ref is remembered. */
export const REF_GENERATIONS = 8;

interface RefRecord {
  readonly identity: RefIdentity;
  readonly key: string;
  generation: number;
}

export type RefLookup = { readonly identity: RefIdentity } | { readonly missing: 'forgotten' | 'never-issued' };

export class RefRegistry {
  private serial = 0;
  private generation = 0;
  private readonly byRef = new Map<string, RefRecord>();
  private readonly byKey = new Map<string, string>();

  /** The reading's summary with a ref on every offered entry (first key, so a model sees it first). */
  attach(reading: ScreenReading): ScreenSummary {
    this.generation += 1;
    const actions = reading.summary.actions.map((entry, i) => {
      const plan = reading.plans[i];
      // An entry no tap can reach is not a target: it says why instead (not_actionable).
      if (!plan || entry.not_actionable) return entry;
      const identity = identify(reading.tree, plan.node, reading.window);
      const key = identityKey(identity);
      let ref = this.byKey.get(key);
      if (ref === undefined) {
        this.serial += 1;
        ref = formatRef(this.serial);
        this.byKey.set(key, ref);
        this.byRef.set(ref, { identity, key, generation: this.generation });
      } else {
        this.byRef.get(ref)!.generation = this.generation;
      }
      return { ref, ...entry };
    });
    this.forgetOld();
    return { ...reading.summary, actions };
  }

  lookup(ref: string): RefLookup {
    const record = this.byRef.get(ref);
    if (record) return { identity: record.identity };
    const serial = Number.parseInt(ref.slice(1), 36);
    return { missing: serial <= this.serial ? 'forgotten' : 'never-issued' };
  }

  /** Records held now (for tests: the bound). */
  get size(): number {
    return this.byRef.size;
  }

  private forgetOld(): void {
    const oldest = this.generation - REF_GENERATIONS + 1;
    for (const [ref, record] of this.byRef) {
      if (record.generation >= oldest) continue;
      this.byRef.delete(ref);
      this.byKey.delete(record.key);
    }
  }
}
