/**
 * `node --import tsx bench/tools/summarySize.ts [--by-field] [--files] [--dir=PATH]`: the summary's size against
 * the raw XML over ../shared/fixtures (or every .xml/.uix file of PATH: a held-out set of real dumps kept outside
 * the repository), as part 1 measures it (text block = the envelope's minified JSON, refs attached by one registry
 * for the whole run; a fixed operation id), in bytes and o200k tokens; median and p90 (nearest rank). With
 * --by-field, what each part of the summary costs (bytes of its JSON, summed over the fixtures), to see where the
 * bytes go.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextFor, envelopeFor, loadDomain } from '../lib/domain.js';
import { listFixtures } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';
import { measure } from '../lib/tokens.js';

const byField = process.argv.includes('--by-field');
const perFile = process.argv.includes('--files');
const dirArg = process.argv.find((a) => a.startsWith('--dir='))?.slice('--dir='.length);
const fromDir = (dir: string): { name: string; path: string }[] =>
  readdirSync(dir)
    .filter((f) => /\.(xml|uix)$/.test(f))
    .sort()
    .map((f) => ({ name: f, path: join(dir, f) }));
const fixtures = dirArg ? fromDir(dirArg) : listFixtures();
if (fixtures === null) {
  process.stderr.write('../shared/fixtures is absent\n');
  process.exit(1);
}
const domain = await loadDomain();
const rows: { file: string; rawBytes: number; rawTokens: number; bytes: number; tokens: number }[] = [];
const fields = new Map<string, number>();
const add = (k: string, v: unknown): void => {
  fields.set(k, (fields.get(k) ?? 0) + Buffer.byteLength(JSON.stringify(v), 'utf8') + k.split('.').pop()!.length + 4);
};
for (const f of fixtures) {
  const xml = readFileSync(f.path, 'utf8');
  const tree = domain.parseDump(xml);
  const summary = domain.summariseScreen(tree, contextFor(tree));
  // A fixed operation id: the random one moves the token count by ±3 between two runs.
  const wire = JSON.stringify({ ...envelopeFor(summary), operation_id: '000000000000' });
  const raw = measure(xml);
  const ours = measure(wire);
  rows.push({
    file: f.name,
    rawBytes: raw.bytes,
    rawTokens: raw.tokens_o200k,
    bytes: ours.bytes,
    tokens: ours.tokens_o200k,
  });
  if (byField) {
    for (const [k, v] of Object.entries(summary)) if (k !== 'actions') add(k, v);
    for (const a of summary.actions) for (const [k, v] of Object.entries(a)) add(`actions.${k}`, v);
  }
}
const pct = rows.map((r) => (100 * r.bytes) / r.rawBytes);
const tokPct = rows.map((r) => (100 * r.tokens) / r.rawTokens);
const line = (name: string, v: number[], d = 2): string =>
  `${name.padEnd(28)} median ${round(median(v), d)}  p90 ${round(p90(v), d)}`;
console.log(`${rows.length} fixtures`);
console.log(line('summary / raw bytes, %', pct));
console.log(line('summary / raw tokens, %', tokPct));
console.log(
  line(
    'summary bytes',
    rows.map((r) => r.bytes),
    0,
  ),
);
console.log(
  line(
    'summary tokens (o200k)',
    rows.map((r) => r.tokens),
    0,
  ),
);
console.log(`under 5 %: ${pct.filter((p) => p <= 5).length} of ${rows.length}`);
if (perFile)
  for (const [i, r] of rows.entries())
    console.log(
      `${round(pct[i] as number)
        .toFixed(2)
        .padStart(6)} %  ${String(r.bytes).padStart(6)} B ${String(r.tokens).padStart(5)} t  ${r.file}`,
    );
if (byField) {
  const total = [...fields.values()].reduce((s, v) => s + v, 0);
  for (const [k, v] of [...fields].sort((a, b) => b[1] - a[1]))
    console.log(`${k.padEnd(28)} ${String(v).padStart(8)} B  ${round((100 * v) / total, 1)} %`);
}
