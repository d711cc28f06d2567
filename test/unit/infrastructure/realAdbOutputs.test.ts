/**
 * The adb parsers against outputs captured on real devices by public projects (the corpus in
 * test/fixtures/adb-outputs, each file's origin in SOURCES.json; docs/internals/device-quirks.md). Every
 * entry runs through the code the harness really uses for that command and must match its
 * `expect`; an entry without one, or with a key this test does not check, fails.
 */
import { PNG as PNGJS } from 'pngjs';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCrashBuffer } from '../../../src/domain/diagnostics/crashes.js';
import { parseThreadtime } from '../../../src/domain/diagnostics/logLine.js';
import { HarnessError } from '../../../src/domain/errors.js';
import type { Rect } from '../../../src/domain/tree/uiNode.js';
import { ADB_COMMANDS, AdbDeviceGateway } from '../../../src/infrastructure/adb/AdbDeviceGateway.js';
import type { AdbResult, AdbRunner } from '../../../src/infrastructure/adb/AdbRunner.js';
import {
  parseDensity,
  parseForegroundPackage,
  parsePackageList,
  parsePropertyListing,
  parseScreenLock,
  parseSystemBars,
  parseWakefulness,
  parseWindowState,
} from '../../../src/infrastructure/adb/parsers.js';
import { FakeClock } from '../../support/FakeClock.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';
import { handPng } from './support/handPng.js';

const ROOT = join(__dirname, '../../fixtures/adb-outputs');

interface Source {
  readonly repository?: string;
  readonly path?: string;
  readonly commit?: string;
  readonly thread?: string;
  readonly note?: string;
}

interface Entry {
  readonly file: string;
  readonly family: string;
  readonly command: string;
  readonly source: Source;
  readonly android?: string;
  readonly note?: string;
  readonly expect?: Record<string, unknown>;
}

const ENTRIES = JSON.parse(readFileSync(join(ROOT, 'SOURCES.json'), 'utf8')) as Entry[];

type Rect4 = [number, number, number, number];
const rect = (r: Rect4 | null): Rect | null =>
  r === null ? null : { left: r[0], top: r[1], right: r[2], bottom: r[3] };

/** Answers the gateway's adb calls: the capture for the command under test, a fixed reply for the rest. */
class CaptureRunner {
  readonly serial = 'real-capture';
  readonly calls: string[] = [];
  constructor(private readonly replies: ReadonlyMap<string, Partial<AdbResult>>) {}

  async run(args: readonly string[]): Promise<AdbResult> {
    const key = args.join(' ');
    this.calls.push(key);
    const reply = this.replies.get(key);
    if (!reply) throw new Error(`unexpected adb call: ${key}`);
    return { stdout: reply.stdout ?? Buffer.alloc(0), stderr: reply.stderr ?? '', exitCode: reply.exitCode ?? 0 };
  }
}

function gatewayAnswering(replies: [readonly string[], Partial<AdbResult>][]): AdbDeviceGateway {
  const runner = new CaptureRunner(new Map(replies.map(([args, reply]) => [args.join(' '), reply])));
  // No retry: a retry would only replay the same capture.
  return new AdbDeviceGateway(runner as unknown as AdbRunner, new FakeClock(), silentLogger, { dumpRetries: 0 });
}

async function outcome<T>(promise: Promise<T>): Promise<{ value: T } | { error: HarnessError }> {
  try {
    return { value: await promise };
  } catch (error) {
    if (error instanceof HarnessError) return { error };
    throw error;
  }
}

/** A small real PNG (2×2 RGBA), for captures whose text precedes the image on the same stream. */
const PNG = handPng({
  width: 2,
  height: 2,
  colorType: 6,
  bitDepth: 8,
  interlace: false,
  pixel: (x, y) => [x * 255, y * 255, 0, 255],
});

/** The same 2×2 picture as screencap's raw frame: width, height, RGBA_8888, sRGB, then the pixels. */
const PNG_PIXELS = Buffer.from([0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 255, 255, 0, 255]);
const RAW = Buffer.concat([Buffer.from(new Uint32Array([2, 2, 1, 1]).buffer), PNG_PIXELS]);
const pixelsOf = (png: Buffer): Buffer => PNGJS.sync.read(png).data;

type Check = (value: unknown, data: Buffer, entry: Entry) => void | Promise<void>;

/** Per family, the keys `expect` may hold and how each is checked. */
const CHECKS: Record<string, Record<string, Check>> = {
  'dumpsys-window': {
    systemBars: (v, data) => {
      const bars = v as { status: Rect4 | null; navigation: Rect4 | null };
      const text = data.toString('utf8');
      const expected = { status: rect(bars.status), navigation: rect(bars.navigation) };
      expect(parseSystemBars(text)).toEqual(expected);
      expect(parseWindowState(text).systemBars).toEqual(expected);
    },
    foreground: (v, data) => {
      expect(parseForegroundPackage(data.toString('utf8'))).toBe(v);
    },
    locked: (v, data) => {
      const text = data.toString('utf8');
      expect(parseScreenLock(text).locked).toBe(v);
      expect(parseWindowState(text).lock?.locked).toBe(v);
    },
    awake: (v, data) => {
      expect(parseScreenLock(data.toString('utf8')).awake).toBe(v);
    },
    density: (v, data) => {
      expect(parseWindowState(data.toString('utf8')).density).toBe(v);
    },
  },
  'dumpsys-power': {
    wakefulness: (v, data) => {
      expect(parseWakefulness(data.toString('utf8'))).toBe(v);
    },
  },
  getprop: {
    properties: (v, data) => {
      expect(parsePropertyListing(data.toString('utf8')).size).toBe(v);
    },
    release: (v, data) => {
      expect(parsePropertyListing(data.toString('utf8')).get('ro.build.version.release')).toBe(v);
    },
    model: (v, data) => {
      expect(parsePropertyListing(data.toString('utf8')).get('ro.product.model')).toBe(v);
    },
    props: (v, data) => {
      const props = parsePropertyListing(data.toString('utf8'));
      for (const [name, value] of Object.entries(v as Record<string, string>))
        expect(props.get(name), name).toBe(value);
    },
  },
  'wm-density': {
    density: (v, data) => {
      expect(parseDensity(data.toString('utf8'))).toBe(v);
    },
  },
  'pm-list-packages': {
    packages: (v, data) => {
      expect(parsePackageList(data.toString('utf8'))).toHaveLength(v as number);
    },
    includes: (v, data) => {
      expect(parsePackageList(data.toString('utf8'))).toEqual(expect.arrayContaining(v as string[]));
    },
  },
  'uiautomator-dump': {
    hierarchy: async (v, data) => {
      const result = await outcome(
        gatewayAnswering([
          [ADB_COMMANDS.dumpUi, { stdout: data }],
          [ADB_COMMANDS.uia2ServerPid, { exitCode: 1 }],
        ]).dumpUi(),
      );
      if (v === true) {
        expect(result).toHaveProperty('value');
        const xml = (result as { value: string }).value;
        expect(xml).toMatch(/^(<\?xml|<hierarchy)/);
        expect(xml.endsWith('</hierarchy>')).toBe(true);
      } else {
        expect(result).toHaveProperty('error');
      }
    },
    error: async (v, data) => {
      const result = await outcome(
        gatewayAnswering([
          [ADB_COMMANDS.dumpUi, { stdout: data }],
          [ADB_COMMANDS.uia2ServerPid, { exitCode: 1 }],
        ]).dumpUi(),
      );
      expect('error' in result ? result.error.code : 'no error').toBe(v);
    },
    message: async (v, data) => {
      const result = await outcome(
        gatewayAnswering([
          [ADB_COMMANDS.dumpUi, { stdout: data }],
          [ADB_COMMANDS.uia2ServerPid, { exitCode: 1 }],
        ]).dumpUi(),
      );
      expect('error' in result ? result.error.message : 'no error').toContain(v);
    },
  },
  screencap: {
    // The capture's text, then the image on the same stream (exec-out carries stderr there too):
    // the raw frame the harness asks for first, and the device PNG its fallback asks for.
    pngAfterWarning: async (v, data) => {
      const gateway = gatewayAnswering([
        [ADB_COMMANDS.screencapRaw, { stdout: Buffer.concat([data, RAW]) }],
        [ADB_COMMANDS.screencap, { stdout: Buffer.concat([data, PNG]) }],
        [ADB_COMMANDS.displays, { exitCode: 0 }],
        [ADB_COMMANDS.dumpsysWindow, { exitCode: 0 }],
      ]);
      const result = await outcome(gateway.screencap());
      if (v === true) expect('value' in result && PNG_PIXELS.equals(pixelsOf(result.value))).toBe(true);
      else expect(result).toHaveProperty('error');
    },
    // The capture alone, as the whole of the command's output (raw or PNG alike).
    error: async (v, data) => {
      const gateway = gatewayAnswering([
        [ADB_COMMANDS.screencapRaw, { stdout: data }],
        [ADB_COMMANDS.screencap, { stdout: data }],
        [ADB_COMMANDS.displays, { exitCode: 0 }],
        [ADB_COMMANDS.dumpsysWindow, { exitCode: 0 }],
      ]);
      const result = await outcome(gateway.screencap());
      expect('error' in result ? result.error.code : 'no error').toBe(v);
    },
  },
  logcat: {
    threadtimeWithYear: (v, data) => {
      expect(parseThreadtime(data.toString('utf8'))).toHaveLength(v as number);
    },
    first: (v, data) => {
      expect(parseThreadtime(data.toString('utf8'))[0]).toMatchObject(v as object);
    },
    last: (v, data) => {
      expect(parseThreadtime(data.toString('utf8')).at(-1)).toMatchObject(v as object);
    },
    crashes: (v, data) => {
      const reports = parseCrashBuffer(parseThreadtime(data.toString('utf8')));
      expect(reports.map((r) => ({ kind: r.kind, process: r.process, exception: r.exception }))).toEqual(v);
    },
  },
};

/** Runs every expectation of one entry; throws (fails) when there is none or one is not checked here. */
async function checkEntry(entry: Entry, data: Buffer): Promise<void> {
  const checks = CHECKS[entry.family];
  if (!checks) throw new Error(`${entry.file}: no checks for family ${entry.family}`);
  const expectations = Object.entries(entry.expect ?? {});
  if (expectations.length === 0) throw new Error(`${entry.file}: no expect`);
  for (const [key, value] of expectations) {
    const check = checks[key];
    if (!check) throw new Error(`${entry.file}: expect.${key} is not checked for ${entry.family}`);
    await check(value, data, entry);
  }
}

function filesOnDisk(): string[] {
  const out: string[] = [];
  for (const family of readdirSync(ROOT)) {
    const dir = join(ROOT, family);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir)) out.push(`${family}/${name}`);
  }
  return out.sort();
}

describe('real adb outputs (test/fixtures/adb-outputs)', () => {
  it('lists every file on disk exactly once, under its family, with a source', () => {
    const listed = ENTRIES.map((e) => e.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(filesOnDisk());
    for (const entry of ENTRIES) {
      expect(entry.file.split('/')[0], entry.file).toBe(entry.family);
      expect(entry.command, entry.file).toBeTruthy();
      expect(entry.source.repository, entry.file).toMatch(/^[\w.-]+\/[\w.-]+$/);
      // A file of a repository at a commit, or an issue / pull request thread quoting the output.
      const atCommit =
        typeof entry.source.path === 'string' &&
        entry.source.path.length > 0 &&
        /^[0-9a-f]{40}$/.test(entry.source.commit ?? '');
      const thread = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/(issues|pull|discussions)\/\d+(#[\w-]+)?$/.test(
        entry.source.thread ?? '',
      );
      expect(atCommit || thread, `${entry.file}: source needs path + commit or a thread URL`).toBe(true);
      expect(entry.expect, entry.file).toBeTruthy();
    }
  });

  it('has at least five captures per family', () => {
    const counts = new Map<string, number>();
    for (const entry of ENTRIES) counts.set(entry.family, (counts.get(entry.family) ?? 0) + 1);
    for (const family of Object.keys(CHECKS)) expect(counts.get(family) ?? 0, family).toBeGreaterThanOrEqual(5);
  });

  it('fails an entry without expect, with an empty expect, or with a key it does not check', async () => {
    const entry = ENTRIES.find((e) => e.family === 'wm-density') as Entry;
    const data = readFileSync(join(ROOT, entry.file));
    await expect(checkEntry({ ...entry, expect: undefined }, data)).rejects.toThrow(/no expect/);
    await expect(checkEntry({ ...entry, expect: {} }, data)).rejects.toThrow(/no expect/);
    await expect(checkEntry({ ...entry, expect: { dpi: 1 } }, data)).rejects.toThrow(/not checked/);
    await expect(checkEntry({ ...entry, family: 'unknown' }, data)).rejects.toThrow(/no checks/);
  });

  it('fails when a capture does not give what its entry expects', async () => {
    for (const entry of ENTRIES) {
      const data = readFileSync(join(ROOT, entry.file));
      const [key, value] = Object.entries(entry.expect ?? {})[0] as [string, unknown];
      const wrong =
        typeof value === 'number'
          ? value + 1
          : typeof value === 'boolean'
            ? !value
            : typeof value === 'string'
              ? `${value}x`
              : null;
      if (wrong === null) continue;
      await expect(checkEntry({ ...entry, expect: { [key]: wrong } }, data), entry.file).rejects.toThrow();
    }
  });

  for (const entry of ENTRIES) {
    it(`${entry.family}: ${entry.file.slice(entry.family.length + 1)}`, async () => {
      await checkEntry(entry, readFileSync(join(ROOT, entry.file)));
    });
  }
});
