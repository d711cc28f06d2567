/**
 * Part 1: token economy. For every fixture: raw XML, our summary as the client receives it
 * (text block and structuredContent), and the two peers' element lists rebuilt for the same dump;
 * plus the set difference "a peer offers it, we do not", classified by reason.
 */
import { readFileSync } from 'node:fs';
import type { UiNode, UiTree } from '../../src/domain/tree/uiNode.js';
import { cutCodePoints, isIconGlyphsOnly } from '../../src/domain/tree/nodeFacts.js';
import { MAX_NAME_CODE_POINTS } from '../../src/domain/summary/selectorChoice.js';
import { foldCase } from '../../src/domain/summary/actionPlans.js';
import { nameOfEntry, selectorValueOf, type ActionEntry, type ScreenSummary } from '../../src/domain/tree/screen.js';
import { contextFor, envelopeFor, hasRole, isVisibleNode, type DomainApi } from '../lib/domain.js';
import { listFixtures } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';
import { measure, type Size } from '../lib/tokens.js';
import { formatMobileMcpJson, formatMobileMcpText, mobileMcpElements } from '../peers/mobileMcp.js';
import { appiumMcpEntries, formatAppiumMcp } from '../peers/appiumMcp.js';
import { toAppiumShape, toUiautomatorShape } from '../peers/shapes.js';

export type LossReason =
  | 'invisible'
  | 'not actionable, label shown (texts or an action)'
  | 'not actionable, icon-font glyph only (left out of texts)'
  | 'not actionable, label cut to a name (read whole in text mode)'
  | 'not actionable, no label'
  | 'scrollable container'
  | 'inside a scrollable only'
  | 'actionable container, its actionable children are offered'
  | 'actionable, no label or id to select by'
  | 'actionable, label unusable as a selector (over 256 code points or control characters)'
  | 'truncated (over the action cap)'
  | 'unexplained';

/** Reasons that mean a real actionable target went missing (the target says: none, unless explained). */
const LOST_ACTIONABLE: readonly LossReason[] = [
  'actionable, no label or id to select by',
  'actionable, label unusable as a selector (over 256 code points or control characters)',
  'truncated (over the action cap)',
  'unexplained',
];

export interface PeerComparison {
  readonly listed: number;
  /** Peer entries whose tap lands on a target we offer (same node or its actionable owner). */
  readonly covered: number;
  readonly notOffered: Partial<Record<LossReason, number>>;
  readonly lostActionable: number;
  readonly examples: { reason: LossReason; peerEntry: string }[];
}

export interface FileResult {
  readonly file: string;
  readonly nodes: number;
  readonly raw: Size;
  readonly ours: {
    readonly text: Size;
    readonly structured: Size;
    readonly both: Size;
    readonly actions: number;
    readonly ambiguous: number;
    readonly actionsBeforeCap: number;
    readonly texts: number;
    readonly layoutFindings: number;
    readonly truncated: boolean;
    readonly percentOfRawBytes: number;
  };
  readonly mobileMcpJson: Size & { readonly elements: number };
  readonly mobileMcpText: Size & { readonly elements: number };
  /** mobile-mcp returns an empty list on a dump with several top-level windows (see peers/mobileMcp.ts). */
  readonly mobileMcpEmptyMultiWindow: boolean;
  readonly appiumMcp: Size & { readonly elements: number };
  readonly vsMobileMcp: PeerComparison;
  readonly vsAppiumMcp: PeerComparison;
}

export interface TokenEconomyResult {
  readonly status: 'measured' | 'skipped';
  readonly reason?: string;
  readonly files: FileResult[];
  readonly errors: { file: string; error: string }[];
  readonly aggregate?: Record<string, { median: number; p90: number }>;
}

type Box = { left: number; top: number; width: number; height: number };
const key = (b: Box): string => `${b.left},${b.top},${b.width},${b.height}`;
/** The summary sends bounds as `[left, top, width, height]`. */
const boxOf = (a: ActionEntry): Box => ({
  left: a.bounds[0],
  top: a.bounds[1],
  width: a.bounds[2],
  height: a.bounds[3],
});
/** Single findings listed: a grouped finding names several actions. */
const findingsListed = (s: ScreenSummary): number =>
  (s.layout_findings ?? []).reduce(
    (n, f) => n + ('actions' in f ? f.actions.length : 'refs' in f ? f.refs.length : 1),
    0,
  );
const rectKey = (n: UiNode): string | null =>
  n.bounds
    ? key({
        left: n.bounds.left,
        top: n.bounds.top,
        width: n.bounds.right - n.bounds.left,
        height: n.bounds.bottom - n.bounds.top,
      })
    : null;

function labelOf(n: UiNode): string {
  for (const v of [n.text, n.contentDesc, n.hint]) if (v.trim() !== '') return v;
  return '';
}

/** The contract's selector rule: a selector value is at most 256 code points, without control or bidi characters (\n \r \t allowed). */
function usableAsSelector(v: string): boolean {
  if (v.trim() === '' || [...v].length > 256) return false;
  // Control characters are what the rule refuses: the pattern must name them.
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(v);
}

/**
 * The values a selector for `n` could be built from: its own and its visible descendants' attributes,
 * skipping descendants that are actionable or scrollable themselves (a tap there reaches them, not `n`).
 */
function selectorSources(n: UiNode): string[] {
  const out: string[] = [];
  const stack: UiNode[] = [n];
  while (stack.length) {
    const x = stack.pop() as UiNode;
    if (x !== n && (!isVisibleNode(x) || hasRole(x) || x.scrollable)) continue;
    for (const v of [x.resourceId, x.contentDesc, x.text, x.hint]) if (v.trim() !== '') out.push(v);
    stack.push(...x.children);
  }
  return out;
}

const inside = (inner: Box, outer: UiNode): boolean => {
  const b = outer.bounds;
  return (
    b !== null &&
    inner.left >= b.left &&
    inner.top >= b.top &&
    inner.left + inner.width <= b.right &&
    inner.top + inner.height <= b.bottom
  );
};

/** Why a node a peer lists is, or is not, among our offered targets. */
function classify(
  node: UiNode,
  offered: Set<string>,
  summary: ScreenSummary,
  textSet: Set<string>,
): LossReason | 'covered' {
  if (!isVisibleNode(node)) return 'invisible';
  let owner: UiNode | null = null;
  let underScrollable = false;
  for (let x: UiNode | null = node; x; x = x.parent) {
    if (hasRole(x)) {
      owner = x;
      break;
    }
    if (x.scrollable) underScrollable = true;
  }
  if (owner === null) {
    if (node.scrollable) return 'scrollable container';
    const label = labelOf(node);
    if (label !== '' && isIconGlyphsOnly(label)) return 'not actionable, icon-font glyph only (left out of texts)';
    // Texts are written once, case aside ("Basic" and a tab's "BASIC" are one text).
    if (label !== '' && (textSet.has(foldCase(label)) || summary.truncated))
      return 'not actionable, label shown (texts or an action)';
    // The summary writes names, not sentences: a long label is there cut, and whole in text mode.
    if (label !== '')
      return textSet.has(foldCase(cutCodePoints(label, MAX_NAME_CODE_POINTS)))
        ? 'not actionable, label cut to a name (read whole in text mode)'
        : 'unexplained';
    return underScrollable ? 'inside a scrollable only' : 'not actionable, no label';
  }
  const k = rectKey(owner);
  if (k !== null && offered.has(k)) return 'covered';
  const ownerNode = owner;
  if (summary.actions.some((a) => inside(boxOf(a), ownerNode)))
    return 'actionable container, its actionable children are offered';
  const sources = selectorSources(owner);
  if (sources.length === 0) return 'actionable, no label or id to select by';
  if (!sources.some(usableAsSelector))
    return 'actionable, label unusable as a selector (over 256 code points or control characters)';
  if ((summary.counts?.actions ?? 0) > summary.actions.length) return 'truncated (over the action cap)';
  return 'unexplained';
}

function compare(
  tree: UiTree,
  summary: ScreenSummary,
  peerOrders: readonly number[],
  describe: (i: number) => string,
): PeerComparison {
  const offered = new Set(summary.actions.map((a) => key(boxOf(a))));
  // A label is shown when it is in texts or an action shows it (texts leave those out).
  // An action's detail counts too: texts leave out what an action shows as its second line.
  const textSet = new Set(
    [
      ...summary.texts,
      ...summary.actions.map(nameOfEntry),
      ...summary.actions.map(selectorValueOf),
      ...summary.actions.flatMap((a) => (a.detail === undefined ? [] : [a.detail])),
    ].map(foldCase),
  );
  const notOffered: Partial<Record<LossReason, number>> = {};
  const examples: { reason: LossReason; peerEntry: string }[] = [];
  let covered = 0;
  peerOrders.forEach((order, i) => {
    const node = tree.nodes[order];
    const reason = node ? classify(node, offered, summary, textSet) : 'unexplained';
    if (reason === 'covered') {
      covered++;
      return;
    }
    notOffered[reason] = (notOffered[reason] ?? 0) + 1;
    if (LOST_ACTIONABLE.includes(reason) && examples.length < 5)
      examples.push({ reason, peerEntry: describe(i).slice(0, 200) });
  });
  const lostActionable = LOST_ACTIONABLE.reduce((s, r) => s + (notOffered[r] ?? 0), 0);
  return { listed: peerOrders.length, covered, notOffered, lostActionable, examples };
}

export function runTokenEconomy(domain: DomainApi): TokenEconomyResult {
  const fixtures = listFixtures();
  if (fixtures === null)
    return { status: 'skipped', reason: '../shared/fixtures is absent (clone without shared/)', files: [], errors: [] };
  const files: FileResult[] = [];
  const errors: { file: string; error: string }[] = [];
  for (const f of fixtures) {
    try {
      const xml = readFileSync(f.path, 'utf8');
      const tree = domain.parseDump(xml);
      // The comparisons need each target's rectangle (include_bounds); the size is the default answer's, without them.
      const summary = domain.summariseWithBounds(tree, contextFor(tree));
      const wire = JSON.stringify(envelopeFor(domain.withoutBounds(summary)));
      const text = measure(wire);
      const both: Size = {
        bytes: text.bytes * 2,
        chars: text.chars * 2,
        tokens_o200k: text.tokens_o200k * 2,
        tokens_cl100k: text.tokens_cl100k * 2,
      };

      const mm = mobileMcpElements(toUiautomatorShape(xml, f.shape));
      const mmAllWindows = mm.length === 0 && tree.roots.length > 1;
      const am = appiumMcpEntries(toAppiumShape(xml, f.shape));
      if (am.some((e) => e.order >= tree.nodes.length))
        throw new Error('peer node numbering does not match the parsed tree');

      files.push({
        file: f.name,
        nodes: tree.nodes.length,
        raw: measure(xml),
        ours: {
          text,
          structured: text,
          both,
          actions: summary.actions.length,
          ambiguous: summary.actions.filter((a) => a.ambiguous).length,
          actionsBeforeCap: summary.counts?.actions ?? summary.actions.length,
          texts: summary.texts.length,
          layoutFindings: summary.counts?.layout_findings ?? findingsListed(summary),
          truncated: summary.truncated === true,
          percentOfRawBytes: round((100 * text.bytes) / Buffer.byteLength(xml, 'utf8'), 2),
        },
        mobileMcpJson: { ...measure(formatMobileMcpJson(mm)), elements: mm.length },
        mobileMcpText: { ...measure(formatMobileMcpText(mm)), elements: mm.length },
        mobileMcpEmptyMultiWindow: mmAllWindows,
        appiumMcp: { ...measure(formatAppiumMcp(am)), elements: am.length },
        vsMobileMcp: compare(
          tree,
          summary,
          mm.map((e) => e.order),
          (i) => JSON.stringify(mm[i]),
        ),
        vsAppiumMcp: compare(
          tree,
          summary,
          am.map((e) => e.order),
          (i) => JSON.stringify(am[i]?.element),
        ),
      });
    } catch (err) {
      errors.push({ file: f.name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const pick: Record<string, (r: FileResult) => number> = {
    raw_bytes: (r) => r.raw.bytes,
    raw_tokens_o200k: (r) => r.raw.tokens_o200k,
    ours_text_bytes: (r) => r.ours.text.bytes,
    ours_text_tokens_o200k: (r) => r.ours.text.tokens_o200k,
    ours_both_tokens_o200k: (r) => r.ours.both.tokens_o200k,
    ours_percent_of_raw_bytes: (r) => r.ours.percentOfRawBytes,
    ours_actions: (r) => r.ours.actions,
    mobile_json_tokens_o200k: (r) => r.mobileMcpJson.tokens_o200k,
    mobile_text_tokens_o200k: (r) => r.mobileMcpText.tokens_o200k,
    mobile_elements: (r) => r.mobileMcpJson.elements,
    appium_tokens_o200k: (r) => r.appiumMcp.tokens_o200k,
    appium_elements: (r) => r.appiumMcp.elements,
  };
  const aggregate: Record<string, { median: number; p90: number }> = {};
  for (const [name, fn] of Object.entries(pick)) {
    const values = files.map(fn);
    aggregate[name] = { median: median(values), p90: p90(values) };
  }
  return { status: 'measured', files, errors, aggregate };
}
