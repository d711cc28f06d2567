/**
 * `node --import tsx bench/tools/whatIf.ts`: what each shape change not adopted would save, measured as part 1
 * measures the summary (text block, refs from one registry, ../shared/fixtures), each applied alone to the wire form
 * of the current summary, then all together. docs/performance.md quotes the table; nothing here ships.
 */
import { readFileSync } from 'node:fs';
import { contextFor, envelopeFor, loadDomain } from '../lib/domain.js';
import { listFixtures } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';
import { measure } from '../lib/tokens.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };
type Wire = Obj & { actions: Obj[]; texts: string[] };

const obj = (v: Json | undefined): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null);
const nameOf = (a: Obj): string => {
  if (typeof a.label === 'string') return a.label;
  const s = obj(a.selector);
  const v = s ? Object.entries(s).find(([k]) => k !== 'within')?.[1] : undefined;
  return typeof v === 'string' ? v : '';
};
const stripPrefix = (s: Obj | null, prefix: string): void => {
  if (!s) return;
  if (typeof s.resource_id === 'string' && s.resource_id.startsWith(prefix)) s.resource_id = s.resource_id.slice(prefix.length);
  stripPrefix(obj(s.within), prefix);
};

const CHANGES: Record<string, (s: Wire) => void> = {
  'no bounds on any action': (s) => s.actions.forEach((a) => delete a.bounds),
  'bounds only on actions without selector': (s) => s.actions.forEach((a) => { if (a.selector) delete a.bounds; }),
  'no bounds on scrollables': (s) => (Array.isArray(s.scrollables) ? s.scrollables : []).forEach((c) => { const o = obj(c); if (o) delete o.bounds; }),
  'resource-id without the foreground package prefix': (s) => {
    const prefix = `${String(s.foreground_package)}:id/`;
    s.actions.forEach((a) => stripPrefix(obj(a.selector), prefix));
    (Array.isArray(s.scrollables) ? s.scrollables : []).forEach((c) => stripPrefix(obj(obj(c)?.selector), prefix));
  },
  'no `disambiguated` (the `within` says it)': (s) => s.actions.forEach((a) => delete a.disambiguated),
  'ref without its `e`': (s) => s.actions.forEach((a) => { if (typeof a.ref === 'string') a.ref = a.ref.slice(1); }),
  'texts contained in an action name or another text dropped': (s) => {
    const pool = [...s.actions.map(nameOf), ...s.texts];
    s.texts = s.texts.filter((t) => !pool.some((p) => p !== t && p.includes(t)));
  },
  'short keys (sel, b, l, r)': (s) => {
    const short: Record<string, string> = { selector: 'sel', bounds: 'b', label: 'l', role: 'r' };
    s.actions = s.actions.map((a) => Object.fromEntries(Object.entries(a).map(([k, v]) => [short[k] ?? k, v])));
  },
  'bounds as one string "l,t,w,h"': (s) => s.actions.forEach((a) => { if (Array.isArray(a.bounds)) a.bounds = a.bounds.join(','); }),
};

const fixtures = listFixtures();
if (fixtures === null) {
  process.stderr.write('../shared/fixtures is absent\n');
  process.exit(1);
}
const domain = await loadDomain();
const screens = fixtures.map((f) => {
  const xml = readFileSync(f.path, 'utf8');
  const tree = domain.parseDump(xml);
  return { raw: Buffer.byteLength(xml, 'utf8'), wire: JSON.stringify(domain.summariseScreen(tree, contextFor(tree))) };
});
const all = (s: Wire): void => {
  for (const [name, change] of Object.entries(CHANGES)) if (!name.startsWith('bounds only') && !name.startsWith('bounds as')) change(s);
};
const rows: [string, ((s: Wire) => void) | null][] = [['current', null], ...Object.entries(CHANGES), ['all of the above (except the two bounds variants)', all]];
const sum = (v: number[]): number => v.reduce((a, b) => a + b, 0);
let base: { bytes: number[]; tokens: number[] } | null = null;
console.log('| change | median ours/raw | p90 | median bytes | median tokens | Σ bytes | Σ tokens |\n|---|---|---|---|---|---|---|');
for (const [name, change] of rows) {
  const pct: number[] = [];
  const bytes: number[] = [];
  const tokens: number[] = [];
  for (const sc of screens) {
    const s = JSON.parse(sc.wire) as Wire;
    change?.(s);
    // A fixed operation id: the random one moves tokens by ±3 between rows.
    const m = measure(JSON.stringify({ ...envelopeFor(s as never), operation_id: '00000000-0000-4000-8000-000000000000' }));
    pct.push((100 * m.bytes) / sc.raw);
    bytes.push(m.bytes);
    tokens.push(m.tokens_o200k);
  }
  base ??= { bytes, tokens };
  const d = (v: number[], b: number[]): string => `${round((100 * (sum(v) - sum(b))) / sum(b), 1)} %`;
  console.log(`| ${name} | ${round(median(pct)).toFixed(2)} % | ${round(p90(pct)).toFixed(2)} % | ${median(bytes)} | ${median(tokens)} | ${d(bytes, base.bytes)} | ${d(tokens, base.tokens)} |`);
}
