/**
 * The read-only commands of the closed list, run once on the real device and read
 * by the harness's own parsers: what this device prints is kept as evidence, and a parser that
 * cannot read it shows up here before it shows up as a wrong answer in a tool.
 */
import { extractPng, trimDump } from '../../src/infrastructure/adb/AdbDeviceGateway.js';
import {
  parseDensity,
  parseDisplaySize,
  parseForegroundPackage,
  parseIme,
  parsePackageList,
  parsePropertyListing,
  parseScreenLock,
  parseSystemBars,
  parseWakefulness,
} from '../../src/infrastructure/adb/parsers.js';

export interface Probe {
  readonly name: string;
  readonly argv: readonly string[];
  /** What the parser made of the output, or a reason it could not (then the probe fails). */
  readonly read: (stdout: Buffer) => { ok: true; facts: Record<string, unknown> } | { ok: false; why: string };
}

const text = (b: Buffer): string => b.toString('utf8');

export const PROBES: readonly Probe[] = [
  {
    name: 'getprop',
    argv: ['shell', 'getprop'],
    read: (out) => {
      const props = parsePropertyListing(text(out));
      const release = props.get('ro.build.version.release');
      return release
        ? { ok: true, facts: { properties: props.size, release, sdk: props.get('ro.build.version.sdk') ?? null } }
        : { ok: false, why: 'no ro.build.version.release in the listing' };
    },
  },
  {
    name: 'pm-list-packages',
    argv: ['shell', 'pm', 'list', 'packages'],
    read: (out) => {
      const packages = parsePackageList(text(out));
      return packages.length > 0
        ? { ok: true, facts: { packages: packages.length } }
        : { ok: false, why: 'no package line read' };
    },
  },
  {
    name: 'wm-density',
    argv: ['shell', 'wm', 'density'],
    read: (out) => {
      const density = parseDensity(text(out));
      return density ? { ok: true, facts: { density } } : { ok: false, why: 'no density line read' };
    },
  },
  {
    name: 'dumpsys-window',
    argv: ['shell', 'dumpsys', 'window'],
    read: (out) => {
      const t = text(out);
      const size = parseDisplaySize(t);
      if (!size) return { ok: false, why: 'no display size read' };
      return {
        ok: true,
        facts: {
          size,
          foreground: parseForegroundPackage(t),
          ime: parseIme(t),
          systemBars: parseSystemBars(t),
          lock: parseScreenLock(t),
        },
      };
    },
  },
  {
    name: 'dumpsys-power',
    argv: ['shell', 'dumpsys', 'power'],
    read: (out) => {
      const wakefulness = parseWakefulness(text(out));
      return wakefulness ? { ok: true, facts: { wakefulness } } : { ok: false, why: 'no mWakefulness line read' };
    },
  },
  {
    name: 'uiautomator-dump',
    argv: ['exec-out', 'uiautomator', 'dump', '/dev/tty'],
    read: (out) => {
      const xml = trimDump(text(out));
      return xml
        ? { ok: true, facts: { xmlBytes: Buffer.byteLength(xml) } }
        : { ok: false, why: `no hierarchy in the output: ${JSON.stringify(text(out).slice(0, 200))}` };
    },
  },
  {
    name: 'screencap',
    argv: ['exec-out', 'screencap', '-p'],
    read: (out) => {
      const png = extractPng(out);
      if (!png) return { ok: false, why: `no PNG in ${out.length} bytes` };
      const warningBytes = out.indexOf(png.subarray(0, 8));
      return { ok: true, facts: { pngBytes: png.length, bytesBeforePng: warningBytes } };
    },
  },
];
