/**
 * The fixtures sweep: every real dump under ../shared/fixtures is parsed and summarised,
 * and every offered non-ambiguous selector is proven to resolve to exactly the advertised node (or
 * to it and twins that press the same element) —
 * once through the domain matcher, once through a real XPath engine over the raw XML.
 * The fixtures are read in place (never copied into the repository).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { summariseScreenDetailed } from '../../../src/domain/summary/summary.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { pressTargets } from '../../../src/domain/selectors/pressTargets.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { toBox } from '../../../src/domain/tree/nodeFacts.js';
import { containerOf, visibleScrollables } from '../../../src/domain/summary/scrollables.js';
import { selectorOfEntry, type ScreenContext } from '../../../src/domain/tree/screen.js';
import { expandIds, hasIdTerm } from '../../../src/domain/selectors/selector.js';
import { allNodes, evaluateLocator, parseXml } from './xpathOracle.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixturesRoot = resolve(repoRoot, '../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));

function fixtureFiles(): string[] {
  if (!present) return [];
  return ['dumps', 'appium-source'].flatMap((dir) => {
    const full = join(fixturesRoot, dir);
    if (!existsSync(full)) return [];
    return readdirSync(full)
      .filter((f) => f.endsWith('.xml'))
      .sort()
      .map((f) => join(full, f));
  });
}

const context: ScreenContext = {
  density: 420,
  window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
};

if (!present) {
  console.warn(`fixtures sweep skipped: ${fixturesRoot} is absent (clone ../shared next to the repository)`);
}

describe.skipIf(!present)('fixtures sweep over ../shared/fixtures', () => {
  const files = fixtureFiles();
  const totals = {
    unnamed: 0,
    files: 0,
    nodes: 0,
    offered: 0,
    checked: 0,
    viaId: 0,
    viaA11y: 0,
    viaXpath: 0,
    disambiguated: 0,
    ambiguous: 0,
    twins: 0,
    findings: 0,
    xmlBytes: 0,
    summaryBytes: 0,
    scrollables: 0,
    scrollablesNamed: 0,
    ids: 0,
  };

  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  for (const file of files) {
    const name = file.slice(fixturesRoot.length + 1);
    it(`${name}: every offered unambiguous selector resolves to exactly the advertised node`, () => {
      const xml = readFileSync(file, 'utf8');
      const tree = parseDump(xml);
      const { summary, plans } = summariseScreenDetailed(tree, context);
      const doc = parseXml(xml);
      const elements = allNodes(doc);
      expect(elements.length).toBe(tree.nodes.length);
      totals.files++;
      totals.nodes += tree.nodes.length;
      totals.offered += plans.length;
      totals.findings +=
        summary.counts?.layout_findings ??
        (summary.layout_findings ?? []).reduce((n, f) => n + ('actions' in f ? f.actions.length : 1), 0);
      totals.xmlBytes += Buffer.byteLength(xml);
      totals.summaryBytes += Buffer.byteLength(JSON.stringify(summary));
      // Real dumps report visible (clipped) bounds: nothing in them can be off screen, and a
      // rotated dump (BlueStacks, rotation=1 with portrait bounds) must not look like it is.
      expect((summary.layout_findings ?? []).filter((f) => f.issue === 'off_screen')).toEqual([]);

      expect(summary.actions.length).toBe(Math.min(plans.length, 120));
      // counts go out only with a cut, and then count what was there before it.
      expect(summary.counts?.actions ?? summary.actions.length).toBe(plans.length);
      expect(summary.texts.length).toBeLessThanOrEqual(200);

      for (const plan of plans) {
        const { entry } = plan;
        const wire = selectorOfEntry(entry);
        if (wire === null) {
          // Offered by its ref only: no selector names it alone, because nothing on the
          // node or its content could be one, or because the best one is ambiguous.
          expect(entry.bounds).toEqual(toBox(plan.node.bounds!));
          if (entry.ambiguous) {
            totals.ambiguous++;
            expect(matchSelector(tree, plan.selector!).length).not.toBe(1);
            expect(entry.label).toBeTruthy();
          } else {
            totals.unnamed++;
            expect(plan.selector).toBeNull();
          }
          continue;
        }
        // Every emitted selector passes the same validation ui_tap applies, and once its `id` is
        // expanded with the foreground package (as the application does before resolving) it is
        // exactly the selector the summary proved unique: `id` changes no selector's meaning.
        if (hasIdTerm(parseSelector(wire))) totals.ids++;
        const selector = expandIds(parseSelector(wire), summary.foreground_package);
        expect(selector).toEqual(plan.selector);
        // The advertised bounds are the actionable node's; the selector's node is it or inside it.
        expect(entry.bounds).toEqual(toBox(plan.node.bounds!));
        let inside = false;
        for (let n: typeof plan.selectorNode | null = plan.selectorNode; n; n = n.parent)
          if (n === plan.node) inside = true;
        expect(inside).toBe(true);
        if (entry.disambiguated) totals.disambiguated++;
        expect(entry.ambiguous).toBeUndefined();
        totals.checked++;
        const matched = matchSelector(tree, selector);
        // The advertised node, alone or with twins that press the same element (a tile and its icon
        // sharing one content-desc): an action presses that element either way (pressTargets.ts).
        expect(matched, JSON.stringify(wire)).toContain(plan.selectorNode);
        expect(
          pressTargets(matched).map((t) => t.element),
          JSON.stringify(wire),
        ).toEqual([plan.node]);
        if (matched.length > 1) totals.twins++;

        const locator = buildLocator(selector);
        if (locator.using === 'id') totals.viaId++;
        else if (locator.using === 'accessibility id') totals.viaA11y++;
        else totals.viaXpath++;
        const found = evaluateLocator(doc, locator);
        // The real XPath engine finds exactly the matcher's nodes.
        expect(found, `${locator.using} ${locator.value}`).toEqual(matched.map((n) => elements[n.order]));
      }

      // Each listed container's unambiguous selector finds exactly it, on both engines,
      // and ui_scroll in its own orientation would scroll that container itself.
      const containers = visibleScrollables(tree);
      expect(summary.scrollables ?? []).toHaveLength(Math.min(containers.length, 20));
      (summary.scrollables ?? []).forEach((entry, i) => {
        const node = containers[i]!;
        totals.scrollables++;
        expect(entry.bounds).toEqual(toBox(node.bounds!));
        if (!entry.selector || entry.ambiguous) return;
        totals.scrollablesNamed++;
        const selector = expandIds(parseSelector(entry.selector), summary.foreground_package);
        expect(matchSelector(tree, selector), JSON.stringify(entry.selector)).toEqual([node]);
        const found = evaluateLocator(doc, buildLocator(selector));
        expect(found).toEqual([elements[node.order]]);
        const direction = entry.orientation === 'horizontal' ? 'right' : 'down';
        expect(containerOf(node, direction)).toEqual({ kind: 'found', container: node });
      });
    });
  }

  // How fast the largest fixture parses and summarises is a figure of the bench (part 2 of `npm run bench`, and
  // bench/tools/speedFigures.ts), not a check: the sweep above checks what every fixture gives.

  it('reports the sweep counts', () => {
    // eslint-disable-next-line no-console -- the counts are part of the report
    console.log(`fixtures sweep: ${JSON.stringify(totals)}`);
    expect(totals.files).toBe(files.length);
    expect(totals.checked).toBeGreaterThan(0);
    // The foreground app's resource ids go out as `id` on the real dumps too.
    expect(totals.ids).toBeGreaterThan(0);
  });
});
