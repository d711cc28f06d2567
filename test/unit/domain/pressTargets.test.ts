/**
 * One element or none: which elements a selector's matches would press (pressTargets.ts), what a
 * refusal says about each (ambiguousMessage.ts), and that the rule agrees with the summary's own
 * `ambiguous` marking on every real dump of ../shared/fixtures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { pressTargets } from '../../../src/domain/selectors/pressTargets.js';
import { ambiguousMessage, candidateFacts } from '../../../src/domain/selectors/ambiguousMessage.js';
import { summariseScreenDetailed } from '../../../src/domain/summary/summary.js';
import { expandIds } from '../../../src/domain/selectors/selector.js';
import type { ScreenContext } from '../../../src/domain/tree/screen.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { uiautomatorDump, screen, type NodeSpec } from './dumpBuilder.js';

const PKG = 'com.example.app';

const text = (value: string, bounds: string, more: Partial<NodeSpec> = {}): NodeSpec => ({
  cls: 'android.widget.TextView',
  text: value,
  bounds,
  ...more,
});

/** A clickable row holding a title and a summary, as a Settings list draws it. */
function row(title: string, summary: string, top: number): NodeSpec {
  const b = (t: number, h: number): string => `[0,${t}][1080,${t + h}]`;
  return {
    cls: 'android.widget.LinearLayout',
    clickable: true,
    bounds: b(top, 200),
    children: [
      text(title, `[40,${top + 20}][800,${top + 100}]`, { id: 'android:id/title' }),
      text(summary, `[40,${top + 110}][800,${top + 180}]`, { id: 'android:id/summary' }),
    ],
  };
}

function list(id: string, top: number, rows: NodeSpec[]): NodeSpec {
  return {
    cls: 'androidx.recyclerview.widget.RecyclerView',
    id,
    scrollable: true,
    bounds: `[0,${top}][1080,2200]`,
    children: rows,
  };
}

function targetsOf(roots: NodeSpec[], wire: Record<string, unknown>) {
  const tree = parseDump(uiautomatorDump([screen(roots)]));
  const selector = parseSelector(wire);
  return { tree, selector, targets: pressTargets(matchSelector(tree, selector)) };
}

describe('pressTargets: matches that press the same element are one candidate', () => {
  it('two "Clock" rows are two candidates, each the row its title presses, told apart by what else they show', () => {
    const { selector, targets } = targetsOf(
      [
        list(`${PKG}:id/apps`, 400, [
          row('Calendar', '61 MB', 400),
          row('Clock', '21.45 MB', 600),
          row('Clock', '8.12 MB', 800),
        ]),
      ],
      { text: 'Clock' },
    );
    expect(targets).toHaveLength(2);
    expect(targets.map((t) => [t.element.className, t.actionable, t.matches.length])).toEqual([
      ['android.widget.LinearLayout', true, 1],
      ['android.widget.LinearLayout', true, 1],
    ]);
    const facts = candidateFacts(selector, targets);
    expect(facts.map((f) => [f.label, f.alsoShows, f.within])).toEqual([
      ['Clock', ['21.45 MB'], null],
      ['Clock', ['8.12 MB'], null],
    ]);
    const message = ambiguousMessage(selector, [
      { facts: facts[0]!, ref: 'e7' },
      { facts: facts[1]!, ref: 'e8' },
    ]);
    expect(message).toBe(
      `{"text":"Clock"} matches 2 different elements on this screen, so acting on it would be a coin toss: nothing was tapped or typed. ` +
        `Send the one you mean by its ref (or by the selector with the within given): {"ref":"e7"} 'Clock' (with '21.45 MB'); {"ref":"e8"} 'Clock' (with '8.12 MB').`,
    );
  });

  it('a search field holding "storage" and the "Storage" row are two candidates, each with the within that leaves it alone', () => {
    const field: NodeSpec = {
      cls: 'android.widget.LinearLayout',
      id: `${PKG}:id/search_bar`,
      bounds: '[0,63][1080,252]',
      children: [{ cls: 'android.widget.EditText', text: 'storage', clickable: true, bounds: '[168,84][1038,231]' }],
    };
    const { selector, targets } = targetsOf(
      [field, list(`${PKG}:id/results`, 252, [row('Storage', 'Settings', 252)])],
      {
        text_contains: 'torage',
      },
    );
    expect(targets.map((t) => t.element.className)).toEqual(['android.widget.EditText', 'android.widget.LinearLayout']);
    const facts = candidateFacts(selector, targets);
    expect(facts.map((f) => f.within)).toEqual([
      { key: 'resource_id', value: `${PKG}:id/search_bar` },
      { key: 'resource_id', value: `${PKG}:id/results` },
    ]);
    const message = ambiguousMessage(
      selector,
      [
        { facts: facts[0]!, ref: 'e3' },
        { facts: facts[1]!, ref: 'e9' },
      ],
      PKG,
    );
    expect(message).toContain(`{"ref":"e3"} 'storage', or {"text_contains":"torage","within":{"id":"search_bar"}}`);
    expect(message).toContain(
      `{"ref":"e9"} 'Storage' (with 'Settings'), or {"text_contains":"torage","within":{"id":"results"}}`,
    );
    // The within given is one the selector resolves through: it names exactly that candidate.
    const tree = parseDump(
      uiautomatorDump([screen([field, list(`${PKG}:id/results`, 252, [row('Storage', 'Settings', 252)])])]),
    );
    for (const [i, f] of facts.entries()) {
      const narrowed = pressTargets(matchSelector(tree, { ...selector, within: f.within! }));
      expect(narrowed.map((t) => t.element.order)).toEqual([targets[i]!.element.order]);
    }
  });

  it('a name said twice inside one row is one candidate (the row): nothing to choose between', () => {
    const { targets } = targetsOf([list(`${PKG}:id/apps`, 400, [row('Backup', 'Backup', 400)])], { text: 'Backup' });
    expect(targets).toHaveLength(1);
    expect(targets[0]!.matches).toHaveLength(2);
    expect(targets[0]!.actionable).toBe(true);
  });

  it('identical nested matches that are not actionable collapse to the outer one', () => {
    const outer: NodeSpec = {
      cls: 'android.widget.FrameLayout',
      desc: 'Help center',
      bounds: '[0,300][1080,600]',
      children: [{ cls: 'android.widget.ImageView', desc: 'Help', bounds: '[40,320][200,580]' }],
    };
    const { targets } = targetsOf([outer], { content_desc_contains: 'Help' });
    expect(targets).toHaveLength(1);
    expect(targets[0]!.element.contentDesc).toBe('Help center');
    expect(targets[0]!.actionable).toBe(false);
  });

  it('a heading that is not actionable beside an actionable row is still a second candidate (the find could pick either)', () => {
    const { selector, targets } = targetsOf(
      [text('Clock', '[40,200][600,280]'), list(`${PKG}:id/apps`, 400, [row('Clock', '21.45 MB', 400)])],
      { text: 'Clock' },
    );
    expect(targets.map((t) => t.actionable)).toEqual([false, true]);
    const facts = candidateFacts(selector, targets);
    const message = ambiguousMessage(
      selector,
      [
        { facts: facts[0]!, ref: null },
        { facts: facts[1]!, ref: 'e4' },
      ],
      PKG,
    );
    // Nothing around the heading tells it apart from the row: no within for it.
    expect(message).toContain(
      `(or by the selector with the within given): 'Clock' (not actionable: it has no ref); {"ref":"e4"}`,
    );
    expect(message).toContain(`{"ref":"e4"} 'Clock' (with '21.45 MB'), or {"text":"Clock","within":{"id":"apps"}}`);
  });

  it('a selector that already carries a within, flags or instance is offered no other within', () => {
    const rows = [row('Clock', 'a', 400), row('Clock', 'b', 600)];
    const { selector, targets } = targetsOf([list(`${PKG}:id/apps`, 400, rows)], {
      text: 'Clock',
      within: { resource_id: `${PKG}:id/apps` },
    });
    expect(targets).toHaveLength(2);
    expect(candidateFacts(selector, targets).map((f) => f.within)).toEqual([null, null]);
    // instance picks one match: one element, nothing to refuse.
    expect(targetsOf([list(`${PKG}:id/apps`, 400, rows)], { text: 'Clock', instance: 1 }).targets).toHaveLength(1);
  });

  it('a title whose centre lies outside its row (a clipped row) is not that row', () => {
    const clipped: NodeSpec = {
      cls: 'android.widget.LinearLayout',
      clickable: true,
      bounds: '[0,400][1080,420]',
      children: [text('Clock', '[40,430][800,500]')],
    };
    const { targets } = targetsOf([list(`${PKG}:id/apps`, 400, [clipped])], { text: 'Clock' });
    expect(targets.map((t) => t.element.className)).toEqual(['android.widget.TextView']);
  });
});

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixturesRoot = resolve(repoRoot, '../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));
if (!present)
  console.warn(`press-target agreement skipped: ${fixturesRoot} is absent (clone ../shared next to the repository)`);

const context: ScreenContext = {
  density: 420,
  window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
};

describe.skipIf(!present)('the refusal agrees with the summary on every fixture dump', () => {
  it('an offered selector names one element; an entry marked ambiguous names two or more, so an action refuses it', () => {
    const files = ['dumps', 'appium-source'].flatMap((dir) => {
      const full = join(fixturesRoot, dir);
      return existsSync(full)
        ? readdirSync(full)
            .filter((f) => f.endsWith('.xml'))
            .map((f) => join(full, f))
        : [];
    });
    expect(files.length).toBeGreaterThanOrEqual(40);
    const totals = { offered: 0, ambiguous: 0 };
    for (const file of files) {
      const tree = parseDump(readFileSync(file, 'utf8'));
      const { summary, plans } = summariseScreenDetailed(tree, context);
      for (const plan of plans) {
        if (!plan.selector) continue;
        const selector = expandIds(plan.selector, summary.foreground_package);
        const targets = pressTargets(matchSelector(tree, selector));
        if (!plan.entry.ambiguous) {
          totals.offered++;
          expect(
            targets.map((t) => t.element),
            `${file}: ${JSON.stringify(plan.entry)}`,
          ).toEqual([targets[0]!.element]);
          expect(targets).toHaveLength(1);
          continue;
        }
        totals.ambiguous++;
        // Withheld as ambiguous: its name presses two elements or more, which an action refuses.
        expect(targets.length, `${file}: ${JSON.stringify(plan.entry)}`).toBeGreaterThanOrEqual(2);
        expect(targets.some((t) => t.element === plan.node)).toBe(true);
      }
    }
    // eslint-disable-next-line no-console -- the counts are part of the report
    console.log(`press-target agreement: ${JSON.stringify(totals)}`);
    expect(totals.ambiguous).toBeGreaterThan(0);
  });
});
