/**
 * `npm run bench:visual`: visual refs on the real screenshots of ../shared/fixtures/screens (each
 * with the dump of the same screen). For each pair: which regions the tree leaves unexposed (the
 * rules of src/domain/visual/unexposed.ts), the OCR time there (0 where nothing is unexposed: no
 * screenshot is even decoded), the lines read, and the entries offered with their text, so a person
 * can judge each one against the image. A report, never a test: no figure here can fail a build.
 * Skips with a message when ../shared is absent. Needs the optional OCR packages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDump } from '../src/domain/tree/dump.js';
import { screenSize } from '../src/domain/summary/summary.js';
import { unexposedRegions } from '../src/domain/visual/unexposed.js';
import { visualEntries } from '../src/domain/visual/visualEntries.js';
import { TesseractTextRecognizer } from '../src/infrastructure/ocr/TesseractTextRecognizer.js';
import { REPO_ROOT } from './lib/paths.js';

const SCREENS = join(REPO_ROOT, '..', 'shared', 'fixtures', 'screens');
const log = { debug() {}, info() {}, warn: (m: string) => process.stderr.write(`${m}\n`), error() {} };

async function main(): Promise<void> {
  if (!existsSync(SCREENS)) {
    process.stderr.write(
      `visual refs bench skipped: ${SCREENS} is absent (the shared fixtures sit beside the checkout)\n`,
    );
    return;
  }
  const ocr = new TesseractTextRecognizer(log);
  const rows: string[] = [];
  const offeredAll: string[] = [];
  let withRegions = 0;
  let totalMs = 0;
  const names = readdirSync(SCREENS)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => f.slice(0, -4))
    .filter((n) => existsSync(join(SCREENS, `${n}.png`)))
    .sort();
  for (const name of names) {
    const tree = parseDump(readFileSync(join(SCREENS, `${name}.xml`), 'utf8'));
    const size = screenSize(tree, {
      density: 420,
      window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
    });
    const regions = unexposedRegions(tree, size);
    if (regions.length === 0) {
      rows.push(`| ${name} | none | 0 | 0 | 0 | |`);
      continue;
    }
    withRegions += 1;
    const png = readFileSync(join(SCREENS, `${name}.png`));
    const started = performance.now();
    const read = await ocr.read(
      png,
      regions.map((r) => r.bounds),
    );
    const ms = Math.round(performance.now() - started);
    totalMs += ms;
    if (read.kind === 'unavailable') throw new Error(read.remedy);
    const offered = visualEntries(read.lines, regions, tree);
    for (const e of offered)
      offeredAll.push(
        `${name}: "${e.text}" ${e.confidence} [${e.bounds.left},${e.bounds.top},${e.bounds.right},${e.bounds.bottom}]`,
      );
    const reasons = [...new Set(regions.map((r) => r.reason))].join(', ');
    rows.push(
      `| ${name} | ${regions.length} (${reasons}) | ${ms} | ${read.lines.length} | ${offered.length} | ${offered
        .map((e) => e.text.replace(/\|/g, '\\|'))
        .join(' · ')} |`,
    );
  }
  ocr.close();
  const out = [
    `Pairs: ${names.length}; with unexposed regions: ${withRegions}; OCR time on those: ${totalMs} ms in all, ` +
      `worker peak RSS ${Math.round(ocr.peakWorkerRssBytes / 1e6)} MB.`,
    '',
    '| pair | unexposed regions | OCR ms | lines read | offered | offered texts |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Offered entries (text, confidence, box):',
    ...offeredAll.map((l) => `- ${l}`),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
