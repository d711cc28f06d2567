/**
 * Repairing one step whose selector matched nothing (docs/guide/usage.md, "Repair"): the screen is read
 * whole (ui_get_tree's raw XML, every part), each element it offers is scored against the facts
 * the step recorded, and with repair on the step runs again with the selector of the one
 * candidate that clears the threshold. Otherwise nothing more is pressed, and the failure says
 * which candidate came closest and how to repair.
 */
import type { FlowEnvelope } from '../runFlow.js';
import type { FlowStep } from '../flowFile.js';
import { candidatesOnScreen } from './screenCandidates.js';
import { decideRepair, describeCandidate, REPAIR_THRESHOLD } from './scoreCandidates.js';

/** One repair as the report and FILE.repair.json give it. */
export interface FlowRepair {
  /** 1-based. */
  readonly step: number;
  readonly tool: string;
  readonly old_selector: unknown;
  readonly new_selector: Readonly<Record<string, unknown>>;
  readonly score: number;
  readonly threshold: number;
  readonly evidence: readonly string[];
  /** The runners-up, in words, for a person checking the choice. */
  readonly others: readonly string[];
  /** The element as found now: what the repaired file records for the step. */
  readonly element: Readonly<Record<string, unknown>>;
}

type Called = Promise<{ ok: boolean; envelope: FlowEnvelope }>;

export interface RepairIo {
  /** ui_get_tree in the flow's session with these arguments. */
  read(args: Record<string, unknown>): Called;
  /** The step again with this selector. */
  rerun(selector: Readonly<Record<string, unknown>>): Called;
  readonly repair: boolean;
  readonly stepNumber: number;
}

export type RepairOutcome =
  | { readonly kind: 'repaired'; readonly repair: FlowRepair; readonly result: { ok: boolean; envelope: FlowEnvelope } }
  | { readonly kind: 'not-repaired'; readonly advice: string };

/** At most this many parts of raw XML are read: a screen bigger than that is not repaired. */
const MAX_PARTS = 12;

export async function repairFor(step: FlowStep, args: Record<string, unknown>, io: RepairIo): Promise<RepairOutcome> {
  const recorded = step.element;
  if (!recorded) return { kind: 'not-repaired', advice: '' };
  const screen = await readWhole(io);
  if (screen === null)
    return { kind: 'not-repaired', advice: 'The screen could not be read whole to look for the element elsewhere.' };
  const decision = decideRepair(recorded, candidatesOnScreen(screen.xml, screen.foreground));
  const others = decision.ranked.slice(0, 3).map(describeCandidate);
  if (decision.kind === 'tie') {
    return {
      kind: 'not-repaired',
      advice: `Not repaired: ${decision.tied.length} candidates clear the repair threshold ${REPAIR_THRESHOLD.toFixed(2)} and a repair would be a coin toss: ${decision.tied.map(describeCandidate).join('; ')}. Edit the step's selector by hand to the one you mean.`,
    };
  }
  if (decision.kind === 'none') {
    const best = decision.ranked[0];
    return {
      kind: 'not-repaired',
      advice: best
        ? `No candidate clears the repair threshold ${REPAIR_THRESHOLD.toFixed(2)}; the closest: ${describeCandidate(best)}. The element is gone from this screen, or changed too much to be found by what was recorded: fix the step by hand.`
        : 'The screen offers no element to repair the step with.',
    };
  }
  const { best } = decision;
  const selector = best.candidate.selectors[0] as Record<string, unknown>;
  if (!io.repair) {
    return {
      kind: 'not-repaired',
      advice: `Best candidate now: ${describeCandidate(best)} (repair threshold ${REPAIR_THRESHOLD.toFixed(2)}, no other clears it). Run the flow again with --repair to use it and write FILE.repaired.json with a repair report.`,
    };
  }
  const result = await io.rerun(selector);
  return {
    kind: 'repaired',
    result,
    repair: {
      step: io.stepNumber,
      tool: step.tool,
      old_selector: args.selector,
      new_selector: selector,
      score: best.score,
      threshold: REPAIR_THRESHOLD,
      evidence: best.evidence,
      others: others.slice(1),
      element: { ...best.candidate },
    },
  };
}

async function readWhole(io: RepairIo): Promise<{ xml: string; foreground: string | null } | null> {
  let xml = '';
  let foreground: string | null = null;
  let sha: unknown;
  let offset: number | undefined;
  for (let part = 0; part < MAX_PARTS; part += 1) {
    const answer = await io.read({ include_raw: true, ...(offset === undefined ? {} : { raw_offset: offset }) });
    const data = answer.envelope.data ?? {};
    if (!answer.ok || typeof data.ui_tree !== 'string') return null;
    if (typeof data.foreground_package === 'string') foreground = data.foreground_package;
    const cut = data.raw_truncated as { next_offset?: unknown; sha256?: unknown } | undefined;
    // Parts belong together only when their sha256 agree (the screen did not change between them).
    if (part > 0 && cut?.sha256 !== sha) return null;
    sha = cut?.sha256;
    xml += data.ui_tree;
    if (typeof cut?.next_offset !== 'number') return { xml, foreground };
    offset = cut.next_offset;
  }
  return null;
}
