/**
 * The bench's only door into the harness's domain: the two pinned entry points (parseDump,
 * summariseScreen, the latter with refs as ui_get_tree attaches them) and the envelope as a client receives it.
 * Loaded dynamically so the bench can say "not measured" instead of crashing when the domain does not load.
 */
import { randomBytes } from 'node:crypto';
import type { UiNode, UiTree } from '../../src/domain/tree/uiNode.js';
import type { ScreenContext, ScreenSummary } from '../../src/domain/tree/screen.js';
import { OPERATION_ID_LENGTH, operationIdOf, type Envelope } from '../../src/domain/envelope.js';
import type { WireSummary } from '../../src/application/screen/wireSummary.js';

export interface DomainApi {
  parseDump(xml: string): UiTree;
  /** What ui_get_tree answers by default: refs, no bounds. */
  summariseScreen(tree: UiTree, context: ScreenContext): WireSummary;
  /** The same with `include_bounds: true` (what the target comparisons need). */
  summariseWithBounds(tree: UiTree, context: ScreenContext): ScreenSummary;
  withoutBounds(summary: ScreenSummary): WireSummary;
}

/**
 * `summariseScreen` answers what ui_get_tree sends: the summary with every entry's ref, minted by
 * one registry for the whole run, as one server reading the fixtures one after the other would
 * (so refs grow to the length a real session sees, not the shortest).
 */
export async function loadDomain(): Promise<DomainApi> {
  const dump = (await import('../../src/domain/tree/dump.js')) as { parseDump: DomainApi['parseDump'] };
  const summary = await import('../../src/domain/summary/summary.js');
  const { RefRegistry } = await import('../../src/application/screen/RefRegistry.js');
  const { withoutBounds } = await import('../../src/application/screen/wireSummary.js');
  const refs = new RefRegistry();
  const withBounds = (tree: UiTree, context: ScreenContext): ScreenSummary => {
    const detailed = summary.summariseScreenDetailed(tree, context);
    return refs.attach({ ...detailed, tree, window: context.window, xml: '', context });
  };
  return {
    parseDump: dump.parseDump,
    summariseScreen: (tree, context) => withoutBounds(withBounds(tree, context)),
    summariseWithBounds: withBounds,
    withoutBounds,
  };
}

/**
 * A fixture carries no `wm density` nor `dumpsys window`: the bench derives a plausible context.
 * Density from the short side of the screen (720 px → 320 dpi, 1080 px → 420 dpi, 1440 px → 560 dpi);
 * the foreground package is the most frequent package among the nodes outside the system UI;
 * no keyboard. The density only moves the touch-target audit, i.e. a few findings.
 */
export function contextFor(tree: UiTree): ScreenContext {
  const size = screenOf(tree);
  const short = Math.min(size.width, size.height);
  const density = short <= 480 ? 240 : short <= 800 ? 320 : short <= 1200 ? 420 : 560;
  const freq = new Map<string, number>();
  for (const n of tree.nodes) {
    if (n.packageName && n.packageName !== 'com.android.systemui')
      freq.set(n.packageName, (freq.get(n.packageName) ?? 0) + 1);
  }
  let foreground: string | null = null;
  let best = 0;
  for (const [pkg, count] of freq) if (count > best) [foreground, best] = [pkg, count];
  return {
    density,
    window: {
      foregroundPackage: foreground ?? tree.roots[0]?.packageName ?? null,
      ime: { visible: false, frame: null },
      displaySize: null,
    },
  };
}

/** The screen as the dump shows it: declared size, else the union of the top-level windows. */
export function screenOf(tree: UiTree): { width: number; height: number } {
  if (tree.declaredSize) return tree.declaredSize;
  let right = 0;
  let bottom = 0;
  for (const r of tree.roots) {
    if (r.bounds) {
      right = Math.max(right, r.bounds.right);
      bottom = Math.max(bottom, r.bounds.bottom);
    }
  }
  return { width: right, height: bottom };
}

/** The envelope (docs/reference/contract.md, "The envelope") whose JSON is the text block and which is also the structuredContent. */
export function envelopeFor<S extends WireSummary>(summary: S): Envelope<S> {
  return {
    ok: true,
    operation_id: operationIdOf(randomBytes(OPERATION_ID_LENGTH)),
    tool: 'ui_get_tree',
    data: summary,
    evidence: null,
    error: null,
  };
}

export function isVisibleNode(n: UiNode): boolean {
  const b = n.bounds;
  return b !== null && b.right > b.left && b.bottom > b.top;
}

/** The summary's roles, restated here so the bench can classify without importing domain internals. */
export function hasRole(n: UiNode): boolean {
  if (n.scrollable) return false;
  return n.className.endsWith('EditText') || n.checkable || n.clickable || n.longClickable;
}
