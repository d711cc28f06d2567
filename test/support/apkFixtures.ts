/**
 * Real APKs from the npm registry (node_modules, never copied into the repo) and hostile files
 * made in a temp folder for app_install: a text file named .apk, a zip without a
 * manifest, symlinks that lead out of the folder, a FIFO.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DRIVER_MODULES = join(ROOT, 'node_modules', 'appium-uiautomator2-driver', 'node_modules');

/** io.appium.settings 8.0.9 (versionCode 191), with a MAIN/LAUNCHER activity `.Settings`. */
export const SETTINGS_APK = join(DRIVER_MODULES, 'io.appium.settings', 'apks', 'settings_apk-debug.apk');
/** io.appium.uiautomator2.server (no launcher activity). */
export const UIA2_SERVER_APK = join(
  DRIVER_MODULES,
  'appium-uiautomator2-server',
  'apks',
  'appium-uiautomator2-server-v10.6.6.apk',
);
/** io.appium.uiautomator2.server.test: its manifest has no versionCode. */
export const UIA2_TEST_APK = join(
  DRIVER_MODULES,
  'appium-uiautomator2-server',
  'apks',
  'appium-uiautomator2-server-debug-androidTest.apk',
);

/** A stored (uncompressed) zip of one entry: enough for "a zip without AndroidManifest.xml". */
export function storedZip(name: string, data: Buffer): Buffer {
  const n = Buffer.from(name);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(n.length, 28);
  const body = Buffer.concat([local, n, data]);
  const directory = Buffer.concat([central, n]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(body.length, 16);
  return Buffer.concat([body, directory, end]);
}

/** The real manifest of `source` with `from` renamed to `to` (same length: the string pool keeps its offsets). */
function renamedManifest(source: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('renamedManifest needs names of the same length');
  const eocd = source.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = source.readUInt16LE(eocd + 10);
  let at = source.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i += 1) {
    const nameLength = source.readUInt16LE(at + 28);
    const skip = 46 + nameLength + source.readUInt16LE(at + 30) + source.readUInt16LE(at + 32);
    if (source.toString('utf8', at + 46, at + 46 + nameLength) === 'AndroidManifest.xml') {
      const method = source.readUInt16LE(at + 10);
      const size = source.readUInt32LE(at + 20);
      const local = source.readUInt32LE(at + 42);
      const start = local + 30 + source.readUInt16LE(local + 26) + source.readUInt16LE(local + 28);
      const raw = source.subarray(start, start + size);
      const xml = Buffer.from(method === 8 ? inflateRawSync(raw) : raw);
      for (const encoding of ['utf16le', 'utf8'] as const) {
        const needle = Buffer.from(from, encoding);
        for (let hit = xml.indexOf(needle); hit >= 0; hit = xml.indexOf(needle, hit + 1))
          Buffer.from(to, encoding).copy(xml, hit);
      }
      return xml;
    }
    at += skip;
  }
  throw new Error('no AndroidManifest.xml');
}

/** The APK Signing Block of `source` (the bytes just before its central directory), or an empty buffer. */
function signingBlock(source: Buffer): Buffer {
  const eocd = source.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const directory = source.readUInt32LE(eocd + 16);
  if (source.toString('latin1', directory - 16, directory) !== 'APK Sig Block 42') return Buffer.alloc(0);
  const size = Number(source.readBigUInt64LE(directory - 24));
  return source.subarray(directory - size - 8, directory);
}

/**
 * A one-entry APK: the real io.appium.settings manifest with the package renamed to `pkg`
 * (18 characters), and, when `signed`, the original APK Signing Block placed before the central
 * directory. Its signature no longer matches (a real device refuses it); the virtual device only
 * checks that one is there (docs/internals/device-quirks.md), so this is how a package it does not know is made.
 */
export function renamedSettingsApk(pkg: string, signed: boolean): Buffer {
  const source = readFileSync(SETTINGS_APK);
  const zip = storedZip('AndroidManifest.xml', renamedManifest(source, 'io.appium.settings', pkg));
  if (!signed) return zip;
  const block = signingBlock(source);
  const eocd = zip.length - 22;
  const directory = zip.readUInt32LE(eocd + 16);
  const out = Buffer.concat([zip.subarray(0, directory), block, zip.subarray(directory)]);
  out.writeUInt32LE(directory + block.length, out.length - 22 + 16);
  return out;
}

/** An app the virtual device's scenario does not know, with a launcher activity. */
export const RENAMED_PACKAGE = 'org.example.hello1';

export interface ApkFolderFixture {
  /** The folder to give as ANDROID_MCP_APK_DIR. */
  readonly dir: string;
  /** A real APK outside the folder (the symlinks lead to it). */
  readonly outside: string;
  remove(): void;
}

/**
 * `settings.apk` and `builds/server.apk` (real copies), `hello.apk`, `unsigned.apk`, `chrome.apk` (see
 * renamedSettingsApk), `text.apk` (a text file), `nomanifest.apk`
 * (a zip without a manifest), `empty.apk`, `out.apk` (a symlink to a real APK outside),
 * `outdir/settings.apk` (through a symlinked folder outside), `fifo.apk` (a FIFO), `dir.apk` (a folder).
 */
export function makeApkFolder(): ApkFolderFixture {
  const base = mkdtempSync(join(tmpdir(), 'apk-fixture-'));
  const dir = join(base, 'allowed');
  const elsewhere = join(base, 'elsewhere');
  mkdirSync(join(dir, 'builds'), { recursive: true });
  mkdirSync(elsewhere);
  copyFileSync(SETTINGS_APK, join(dir, 'settings.apk'));
  copyFileSync(UIA2_SERVER_APK, join(dir, 'builds', 'server.apk'));
  writeFileSync(join(dir, 'text.apk'), 'this is not an apk\n');
  writeFileSync(join(dir, 'hello.apk'), renamedSettingsApk(RENAMED_PACKAGE, true));
  writeFileSync(join(dir, 'unsigned.apk'), renamedSettingsApk(RENAMED_PACKAGE, false));
  // Chrome as versionCode 191: older than any Chrome a device has (612000000 on the virtual one).
  writeFileSync(join(dir, 'chrome.apk'), renamedSettingsApk('com.android.chrome', true));
  writeFileSync(join(dir, 'nomanifest.apk'), storedZip('classes.dex', Buffer.from('dex\n035\0')));
  writeFileSync(join(dir, 'empty.apk'), '');
  mkdirSync(join(dir, 'dir.apk'));
  const outside = join(elsewhere, 'settings.apk');
  copyFileSync(SETTINGS_APK, outside);
  symlinkSync(outside, join(dir, 'out.apk'));
  symlinkSync(elsewhere, join(dir, 'outdir'));
  symlinkSync('/etc/passwd', join(dir, 'passwd.apk'));
  execFileSync('mkfifo', [join(dir, 'fifo.apk')]);
  return { dir, outside, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** Names inside the fixture folder that app_install must refuse before adb (INVALID_ARGUMENT). */
export const HOSTILE_APK_NAMES: readonly string[] = Object.freeze([
  'text.apk',
  'nomanifest.apk',
  'empty.apk',
  'dir.apk',
  'out.apk',
  'outdir/settings.apk',
  'passwd.apk',
  'fifo.apk',
  'missing.apk',
  '../allowed/settings.apk',
  '../elsewhere/settings.apk',
  'builds/../../elsewhere/settings.apk',
  '/etc/passwd',
  '/tmp/x.apk',
  'settings.apk\u0000',
  'sett\u0000ings.apk',
  'settings',
  'settings.apk/',
  './settings.apk/..',
  '\\\\server\\share\\x.apk',
  'C:\\x.apk',
  'file:///tmp/x.apk',
  '~/x.apk',
  'builds//server.apk',
  '-r.apk',
  'settings.apk; reboot',
]);
