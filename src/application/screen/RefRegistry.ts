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
import { formatRef, formatVisualRef, isVisualRef } from '../../domain/refs/refTarget.js';
import type { ScreenSummary, VisualWireEntry } from '../../domain/tree/screen.js';
import { toBox } from '../../domain/tree/nodeFacts.js';
import type { DigestedEntry, ScreenReading } from './ScreenReader.js';

/** How many ui_get_tree readings back a ref is remembered. */
export const REF_GENERATIONS = 8;

interface RefRecord {
  readonly identity: RefIdentity;
  readonly key: string;
  generation: number;
}

export type RefLookup =
  | { readonly identity: RefIdentity }
  | { readonly visual: DigestedEntry }
  | { readonly missing: 'forgotten' | 'never-issued' };

export class RefRegistry {
  private serial = 0;
  private generation = 0;
  private readonly byRef = new Map<string, RefRecord>();
  private readonly byKey = new Map<string, string>();
  /**
   * Visual refs live one read: the next read (of any part of any screen) forgets them, since pixels
   * carry no identity to follow from one read to the next (docs/reference/summary.md, "Visual refs").
   */
  private visualSerial = 0;
  private visual = new Map<string, DigestedEntry>();

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
    const visual = this.attachVisual(reading);
    return { ...reading.summary, actions, ...visual };
  }

  /** The reading's visual entries with fresh visual refs; every earlier visual ref is forgotten. */
  private attachVisual(reading: ScreenReading): Pick<ScreenSummary, 'visual' | 'visual_unavailable'> {
    this.visual = new Map();
    const read = reading.visual;
    if (!read) return {};
    if (read.kind === 'unavailable') return { visual_unavailable: read.remedy };
    if (read.entries.length === 0) return {};
    const visual = read.entries.map((entry): VisualWireEntry => {
      this.visualSerial += 1;
      const ref = formatVisualRef(this.visualSerial);
      this.visual.set(ref, entry);
      return {
        ref,
        text: entry.text,
        role: 'visual',
        source: 'ocr',
        bounds: toBox(entry.bounds),
        confidence: entry.confidence,
      };
    });
    return { visual };
  }

  lookup(ref: string): RefLookup {
    if (isVisualRef(ref)) {
      const entry = this.visual.get(ref);
      if (entry) return { visual: entry };
      const serial = Number.parseInt(ref.slice(1), 36);
      return { missing: serial <= this.visualSerial ? 'forgotten' : 'never-issued' };
    }
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
