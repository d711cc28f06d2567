/**
 * `node --import tsx bench/tools/speedFigures.ts [--runs=N] [--no-adb]`: the speed figures the unit and
 * integration tests used to assert, measured here where speed belongs (a test asserts what the code does; a
 * loaded 2-core runner makes any timing in a test a coin toss). Each figure is printed beside the target the
 * test held it to; like the rest of the bench it reports and never fails on timing.
 *
 * - parse: `parseDump` of a synthetic 1,601-node dump of over 400 KB (target under 200 ms);
 * - parse + summarise: the largest dump of ../shared/fixtures, median of N runs after 10 warm-ups (target
 *   20 ms, the tests' loose bound 100 ms; part 2 of `npm run bench` has it for every fixture);
 * - downscale: `PngImageTools.downscale` of a 1080x2400 screenshot to a preview of ≤ 1568 px and < 1 MB
 *   (target under 5 s);
 * - adb round trip: `shell,v2,raw:echo ping` through a private adb server to the virtual device, transport
 *   alone (target under 40 ms: without TCP_NODELAY, Nagle plus delayed ACK cost ~45 ms per round trip; the
 *   integration test now checks the flag itself). Needs adb; `--no-adb` leaves it out.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import { parseDump } from '../../src/domain/tree/dump.js';
import { summariseScreenDetailed } from '../../src/domain/summary/summary.js';
import type { ScreenContext } from '../../src/domain/tree/screen.js';
import { PngImageTools } from '../../src/infrastructure/png/PngImageTools.js';
import { listFixtures, REPO_ROOT } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';

const runsArg = process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length);
const RUNS = Math.max(3, Number(runsArg ?? 30) || 30);
const withAdb = !process.argv.includes('--no-adb');

interface Figure {
  readonly figure: string;
  readonly median_ms: number | null;
  readonly p90_ms: number | null;
  readonly target: string;
  readonly note?: string;
}

function timed(runs: number, warmUps: number, work: () => void): number[] {
  for (let i = 0; i < warmUps; i += 1) work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    work();
    samples.push(performance.now() - started);
  }
  return samples;
}

const figureOf = (figure: string, samples: number[], target: string, note?: string): Figure => ({
  figure,
  median_ms: round(median(samples)),
  p90_ms: round(p90(samples)),
  target,
  ...(note ? { note } : {}),
});

/** 800 clickable rows, each with a text child: the dump the parse check read. */
function syntheticDump(): string {
  const rows = Array.from(
    { length: 800 },
    (_, i) =>
      `<node index="${i}" text="" resource-id="" class="android.widget.LinearLayout" package="com.example.app" ` +
      `content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" ` +
      `focused="false" scrollable="false" long-clickable="false" password="false" selected="false" ` +
      `bounds="[0,${i * 3}][1080,${i * 3 + 3}]"><node index="0" text="Row ${i}" resource-id="" ` +
      `class="android.widget.TextView" package="com.example.app" content-desc="" checkable="false" ` +
      `checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" ` +
      `long-clickable="false" password="false" selected="false" bounds="[0,${i * 3}][1080,${i * 3 + 3}]" /></node>`,
  );
  return (
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" ` +
    `resource-id="" class="android.widget.FrameLayout" package="com.example.app" content-desc="" checkable="false" ` +
    `checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" ` +
    `long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${rows.join('')}</node></hierarchy>`
  );
}

function gradientPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      png.data[o] = x % 256;
      png.data[o + 1] = y % 256;
      png.data[o + 2] = (x + y) % 256;
      png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/** The context the unit sweep used: density 420, no window facts (the dump's root gives the size). */
const CONTEXT: ScreenContext = {
  density: 420,
  window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
};

async function adbRoundTrip(runs: number): Promise<Figure> {
  const entry = join(REPO_ROOT, 'test', 'support', 'index.ts');
  const target = '< 40 ms';
  if (!existsSync(entry))
    return { figure: 'adb round trip', median_ms: null, p90_ms: null, target, note: 'no test/support' };
  const support = (await import(pathToFileURL(entry).href)) as typeof import('../../test/support/index.js');
  let device: Awaited<ReturnType<typeof support.startVirtualDeviceForTest>> | null = null;
  try {
    device = await support.startVirtualDeviceForTest();
    const samples: number[] = [];
    for (let i = 0; i < runs + 5; i += 1) {
      const started = performance.now();
      const reply = await support.openDeviceService(device.adb.port, device.serial, 'shell,v2,raw:echo ping');
      if (i >= 5) samples.push(performance.now() - started);
      if (!reply.data.includes(Buffer.from('ping\n'))) throw new Error('echo answered something else');
    }
    return figureOf('adb round trip (`shell,v2,raw:echo ping`, adb server and transport)', samples, target);
  } catch (error) {
    return { figure: 'adb round trip', median_ms: null, p90_ms: null, target, note: `not measured: ${String(error)}` };
  } finally {
    await device?.stop();
  }
}

async function main(): Promise<void> {
  const figures: Figure[] = [];
  const xml = syntheticDump();
  figures.push(
    figureOf(
      `parseDump, synthetic ${Math.round(xml.length / 1024)} KB dump`,
      timed(RUNS, 3, () => parseDump(xml)),
      '< 200 ms',
    ),
  );

  const fixtures = listFixtures();
  if (fixtures === null || fixtures.length === 0) {
    figures.push({
      figure: 'parse + summarise',
      median_ms: null,
      p90_ms: null,
      target: '20 ms',
      note: '../shared/fixtures is absent',
    });
  } else {
    const largest = [...fixtures].sort((a, b) => statSync(b.path).size - statSync(a.path).size)[0]!;
    const text = readFileSync(largest.path, 'utf8');
    figures.push(
      figureOf(
        `parse + summarise, largest fixture ${largest.name}`,
        timed(RUNS, 10, () => summariseScreenDetailed(parseDump(text), CONTEXT)),
        '20 ms (the test bound was 100 ms)',
      ),
    );
  }

  const tools = new PngImageTools();
  const screenshot = gradientPng(1080, 2400);
  figures.push(
    figureOf(
      'downscale 1080x2400 to ≤ 1568 px, < 1 MB',
      timed(Math.min(RUNS, 10), 1, () => tools.downscale(screenshot, 1568, 1_000_000)),
      '< 5 s',
    ),
  );

  if (withAdb) figures.push(await adbRoundTrip(RUNS));

  process.stdout.write('| figure | median ms | p90 ms | target |\n| --- | ---: | ---: | --- |\n');
  for (const f of figures) {
    const cell = (v: number | null): string => (v === null ? (f.note ?? 'not measured') : String(v));
    process.stdout.write(`| ${f.figure} | ${cell(f.median_ms)} | ${cell(f.p90_ms)} | ${f.target} |\n`);
  }
}

await main();
