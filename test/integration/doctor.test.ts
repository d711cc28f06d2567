/**
 * `android-mcp-harness doctor` as a user runs it: the built bin, the real adb, with one piece
 * taken away at a time (doctorVirtualDevice.test.ts adds the device). Each missing piece must
 * show up as its own [MISS] line with a remedy, everything else still checked, and exit code 1.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'dist', 'index.js');

interface DoctorRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** name → the marker of its line, e.g. { adb: '[MISS]' }. */
  readonly marks: Record<string, string>;
}

function runDoctor(env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<DoctorRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'doctor', ...args], { env, cwd: scratch, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      const marks: Record<string, string> = {};
      for (const line of String(stdout).split('\n')) {
        const match = /^(\[(?:ok {2}|MISS|-- {2})\]) (\S+)/.exec(line);
        if (match?.[1] && match[2]) marks[match[2]] = match[1];
      }
      resolve({ code, stdout: String(stdout), stderr: String(stderr), marks });
    });
  });
}

let scratch: string;
let emptyBin: string;

/** The caller's environment minus everything that points at adb, Appium or a device. */
function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (['ANDROID_HOME', 'ANDROID_SDK_ROOT', 'ANDROID_ADB_SERVER_PORT', 'ANDROID_UDID', 'ANDROID_MCP_ALLOW_SERIALS', 'APPIUM_URL', 'JAVA_HOME'].includes(key)) continue;
    env[key] = value;
  }
  env.ANDROID_MCP_ARTIFACTS_DIR = path.join(scratch, 'artifacts');
  return { ...env, ...extra };
}

beforeAll(() => {
  if (!existsSync(bin)) {
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'inherit' });
  }
  scratch = mkdtempSync(path.join(os.tmpdir(), 'amh-doctor-it-'));
  emptyBin = path.join(scratch, 'empty-bin');
  mkdirSync(emptyBin);
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('doctor without the pieces (no device needed)', () => {
  it('adb absent (empty PATH, no ANDROID_HOME): adb blocks, the device checks are skipped, the rest still runs', async () => {
    const run = await runDoctor(baseEnv({ PATH: emptyBin, APPIUM_URL: 'http://127.0.0.1:9' }));
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ node: '[ok  ]', dependencies: '[ok  ]', evidence: '[ok  ]', adb: '[MISS]', device: '[--  ]', android: '[--  ]', appium: '[MISS]' });
    expect(run.stdout).toMatch(/adb not found in PATH/);
    expect(run.stdout).toMatch(/^ {2}adb: Install Android platform-tools .*ANDROID_HOME/m);
    // Java cannot be found either with an empty PATH: advisory, never a blocker.
    expect(run.marks.java).toBe('[--  ]');
    expect(run.stdout).not.toMatch(/^ {2}java:/m);
  });

  it('ANDROID_HOME pointing at an SDK without platform-tools/adb falls through to PATH and says where adb was found', async () => {
    const fakeSdk = path.join(scratch, 'empty-sdk');
    mkdirSync(fakeSdk, { recursive: true });
    // A serial the guard refuses keeps adb from starting a server for the device checks.
    const run = await runDoctor(baseEnv({ ANDROID_HOME: fakeSdk, APPIUM_URL: 'http://127.0.0.1:9', ANDROID_UDID: 'refused serial' }));
    expect(run.marks.adb).toBe('[ok  ]');
    expect(run.marks.device).toBe('[--  ]');
    expect(run.stdout).toMatch(/\(found through PATH\)/);
  });

  it('Appium absent: APPIUM_URL on a closed port blocks with a remedy, and no Appium is started instead', async () => {
    const run = await runDoctor(baseEnv({ PATH: emptyBin, APPIUM_URL: 'http://127.0.0.1:9' }));
    expect(run.marks.appium).toBe('[MISS]');
    expect(run.stdout).toMatch(/nothing answers as Appium at http:\/\/127\.0\.0\.1:9\/status/);
    expect(run.stdout).toMatch(/^ {2}appium: Start Appium .*unset APPIUM_URL/m);
  });

  it('evidence directory not writable (a file stands where its parent should be): evidence blocks', async () => {
    const blocker = path.join(scratch, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const run = await runDoctor(baseEnv({ PATH: emptyBin, APPIUM_URL: 'http://127.0.0.1:9', ANDROID_MCP_ARTIFACTS_DIR: path.join(blocker, 'artifacts') }));
    expect(run.marks.evidence).toBe('[MISS]');
    expect(run.stdout).toMatch(/^ {2}evidence: .*ANDROID_MCP_ARTIFACTS_DIR/m);
  });
});

