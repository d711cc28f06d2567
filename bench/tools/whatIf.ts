/**
 * `node --import tsx bench/tools/whatIf.ts`: what each step of the flat shape saved (the `undo` rows put one back)
 * and what each change not adopted would save, measured as part 1 measures the summary (text block, refs from one
 * registry, ../shared/fixtures), each applied alone to the default answer, then the ones not adopted together.
 * docs/internals/performance.md quotes the table; nothing here ships.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextFor, envelopeFor, loadDomain } from '../lib/domain.js';
import { listFixtures } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';
import { measure } from '../lib/tokens.js';
import { selectorOfEntry, selectorValueOf } from '../../src/application/screen/wireSummary.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
type Wire = Obj & { actions: Obj[]; texts: string[] };

const obj = (v: Json | undefined): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null);
/** The entry's name as a model reads it: its label, else its selector's value (the flat entry's selector key). */
const nameOf = (a: Obj): string => (typeof a.label === 'string' ? a.label : selectorValueOf(a as never));
const nestSelector = (a: Obj): Obj => {
  const selector = selectorOfEntry(a as never);
  if (!selector) return a;
  const rest = Object.fromEntries(Object.entries(a).filter(([k]) => !(k in selector)));
  const { ref, ...facts } = rest;
  return { ...(ref !== undefined ? { ref } : {}), selector: selector as Obj, ...facts };
};
const idToResourceId = (s: Obj | null, prefix: string): void => {
  if (!s) return;
  if (typeof s.id === 'string') {
    const { id, ...rest } = s;
    for (const k of Object.keys(s)) delete s[k];
    Object.assign(s, { resource_id: `${prefix}${id}` }, rest);
  }
  idToResourceId(obj(s.within), prefix);
};

/**
 * Each applied alone to the default answer (the flat shape: flat entries, `id`, no bounds). The
 * first three put back what the flat shape took out, to show what each step saved; the rest are not adopted.
 */
const CHANGES: Record<string, (s: Wire) => void> = {
  'undo: nested `selector` object': (s) => {
    s.actions = s.actions.map(nestSelector);
  },
  'undo: `resource_id` with the package instead of `id`': (s) => {
    const prefix = `${String(s.foreground_package)}:id/`;
    s.actions.forEach((a) => idToResourceId(a, prefix));
    (Array.isArray(s.scrollables) ? s.scrollables : []).forEach((c) => idToResourceId(obj(obj(c)?.selector), prefix));
  },
  'no `disambiguated` (the `within` says it)': (s) => s.actions.forEach((a) => delete a.disambiguated),
  'ref without its `e`': (s) =>
    s.actions.forEach((a) => {
      if (typeof a.ref === 'string') a.ref = a.ref.slice(1);
    }),
  'texts contained in an action name or another text dropped': (s) => {
    const pool = [...s.actions.map(nameOf), ...s.texts];
    s.texts = s.texts.filter((t) => !pool.some((p) => p !== t && p.includes(t)));
  },
  'action `label` cut at 80 characters (marked …)': (s) =>
    s.actions.forEach((a) => {
      if (typeof a.label === 'string' && [...a.label].length > 80) a.label = `${[...a.label].slice(0, 79).join('')}…`;
    }),
  'texts cut at 160 characters (marked …)': (s) => {
    s.texts = s.texts.map((t) => ([...t].length > 160 ? `${[...t].slice(0, 159).join('')}…` : t));
  },
  'short keys (l, r)': (s) => {
    const short: Record<string, string> = { label: 'l', role: 'r' };
    s.actions = s.actions.map((a) => Object.fromEntries(Object.entries(a).map(([k, v]) => [short[k] ?? k, v])));
  },
};

// `--dir=PATH`: every .xml/.uix file of PATH instead (a held-out set of real dumps kept outside the repository).
const dirArg = process.argv.find((a) => a.startsWith('--dir='))?.slice('--dir='.length);
const fixtures = dirArg
  ? readdirSync(dirArg)
      .filter((f) => /\.(xml|uix)$/.test(f))
      .sort()
      .map((f) => ({ path: join(dirArg, f) }))
  : listFixtures();
if (fixtures === null) {
  process.stderr.write('../shared/fixtures is absent\n');
  process.exit(1);
}
const domain = await loadDomain();
const screens = fixtures.map((f) => {
  const xml = readFileSync(f.path, 'utf8');
  const tree = domain.parseDump(xml);
  const withBounds = domain.summariseWithBounds(tree, contextFor(tree));
  return {
    raw: Buffer.byteLength(xml, 'utf8'),
    wire: JSON.stringify(domain.withoutBounds(withBounds)),
    withBounds: JSON.stringify(withBounds),
  };
});
const notAdopted = (s: Wire): void => {
  for (const [name, change] of Object.entries(CHANGES)) if (!name.startsWith('undo')) change(s);
};
const BOUNDS = 'undo: bounds on every entry (= include_bounds: true)';
const rows: [string, ((s: Wire) => void) | null][] = [
  ['current (default answer)', null],
  [BOUNDS, null],
  ...Object.entries(CHANGES),
  ['all the changes not adopted, together', notAdopted],
];
const sum = (v: number[]): number => v.reduce((a, b) => a + b, 0);
let base: { bytes: number[]; tokens: number[] } | null = null;
console.log(
  '| change | median ours/raw | p90 | median bytes | median tokens | Σ bytes | Σ tokens |\n|---|---|---|---|---|---|---|',
);
for (const [name, change] of rows) {
  const pct: number[] = [];
  const bytes: number[] = [];
  const tokens: number[] = [];
  for (const sc of screens) {
    const s = JSON.parse(name === BOUNDS ? sc.withBounds : sc.wire) as Wire;
    change?.(s);
    // A fixed operation id: the random one moves tokens by ±3 between rows.
    const m = measure(JSON.stringify({ ...envelopeFor(s as never), operation_id: '000000000000' }));
    pct.push((100 * m.bytes) / sc.raw);
    bytes.push(m.bytes);
    tokens.push(m.tokens_o200k);
  }
  base ??= { bytes, tokens };
  const d = (v: number[], b: number[]): string => `${round((100 * (sum(v) - sum(b))) / sum(b), 1)} %`;
  console.log(
    `| ${name} | ${round(median(pct)).toFixed(2)} % | ${round(p90(pct)).toFixed(2)} % | ${median(bytes)} | ${median(tokens)} | ${d(bytes, base.bytes)} | ${d(tokens, base.tokens)} |`,
  );
}
