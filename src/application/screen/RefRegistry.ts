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
import type { LayoutFinding, ScreenSummary, VisualWireEntry } from '../../domain/tree/screen.js';
import type { ActionPlan } from '../../domain/summary/actionPlans.js';
import { toBox } from '../../domain/tree/nodeFacts.js';
import type { UiNode } from '../../domain/tree/uiNode.js';
import type { DigestedEntry, ScreenReading } from './ScreenReader.js';

/** How many ui_get_tree readings back a ref is remembered. */
export const REF_GENERATIONS = 8;

/**
 * Which answer last gave a ref, so a STALE_REF names the read the model took it from (an action's
 * `after` is not a ui_get_tree call, and saying so would send the model looking for one).
 */
export type RefOrigin = 'ui_get_tree' | 'after' | 'ui_wait' | 'notifications_open' | 'refusal';

/** The read a ref came from, in the words of a STALE_REF: the model took the ref from that answer. */
export function originWords(origin: RefOrigin): string {
  switch (origin) {
    case 'ui_get_tree':
      return 'ui_get_tree';
    case 'after':
      return 'the `after` of the action that showed it';
    case 'ui_wait':
      return 'ui_wait';
    case 'notifications_open':
      return 'notifications_open';
    case 'refusal':
      return 'the refusal that named it';
  }
}

interface RefRecord {
  readonly identity: RefIdentity;
  readonly key: string;
  generation: number;
  origin: RefOrigin;
}

export type RefLookup =
  | { readonly identity: RefIdentity; readonly origin: RefOrigin }
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
  attach(reading: ScreenReading, origin: RefOrigin = 'ui_get_tree'): ScreenSummary {
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
        this.byRef.set(ref, { identity, key, generation: this.generation, origin });
      } else {
        const record = this.byRef.get(ref)!;
        record.generation = this.generation;
        record.origin = origin;
      }
      return { ref, ...entry };
    });
    this.forgetOld();
    const visual = this.attachVisual(reading);
    const layout = findingsByRef(reading.summary.layout_findings, actions);
    const { layout_findings: _byIndex, ...rest } = reading.summary;
    return { ...rest, actions, ...(layout.length > 0 ? { layout_findings: layout } : {}), ...visual };
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
    if (record) return { identity: record.identity, origin: record.origin };
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

/**
 * The findings as answered: a group names its actions by their refs, not by their place in the
 * list (a place means nothing once the list is cut, diffed or read within a container). An entry
 * no tap can reach has no ref, and its own `not_actionable` says what the finding would; a group
 * left with no ref is dropped.
 */
function findingsByRef(
  findings: readonly LayoutFinding[] | undefined,
  actions: readonly ScreenSummary['actions'][number][],
): LayoutFinding[] {
  const out: LayoutFinding[] = [];
  for (const finding of findings ?? []) {
    if (!('actions' in finding)) {
      out.push(finding);
      continue;
    }
    const { actions: indexes, ...rest } = finding;
    const refs = indexes.flatMap((i) => (actions[i]?.ref !== undefined ? [actions[i].ref] : []));
    if (refs.length > 0) out.push({ ...rest, refs });
  }
  return out;
}

/** Each offered entry's node and the ref this read gave it (entries without one are left out). */
export function refsByNode(plans: readonly ActionPlan[], withRefs: ScreenSummary): Map<UiNode, string> {
  const refOf = new Map<UiNode, string>();
  plans.forEach((plan, i) => {
    const ref = withRefs.actions[i]?.ref;
    if (ref !== undefined) refOf.set(plan.node, ref);
  });
  return refOf;
}
