/**
 * Running `android-mcp-harness doctor` as a user does: the built bin in a scratch working
 * directory, with an environment stripped of everything that points at adb, Appium or a device.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './appium.js';
import { trackChild } from './processes.js';

const BIN = path.join(REPO_ROOT, 'dist', 'index.js');
/** What the caller may have set that would point the doctor somewhere else than the test means. */
const POINTING_AT_A_DEVICE = [
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'ANDROID_ADB_SERVER_PORT',
  'ANDROID_UDID',
  'ANDROID_MCP_ALLOW_SERIALS',
  'APPIUM_URL',
  'JAVA_HOME',
];

export interface DoctorRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** name → the marker of its line, e.g. { adb: '[MISS]' }. */
  readonly marks: Record<string, string>;
}

export interface DoctorScratch {
  /** A private temporary directory: the doctor's working directory and home of its artifacts. */
  readonly dir: string;
  /** The caller's environment minus everything that points at adb, Appium or a device, plus `extra`. */
  baseEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  run(env: NodeJS.ProcessEnv, args?: readonly string[]): Promise<DoctorRun>;
  remove(): void;
}

export interface DoctorScratchOptions {
  /**
   * An installed `android-mcp-harness` bin to run instead of the checkout's dist/index.js. It is
   * executed itself (its `#!/usr/bin/env node` line finds node on the PATH the run is given).
   */
  readonly bin?: string;
}

/** Builds dist/ when it is missing (unless another bin is given), and makes the scratch directory the doctor runs in. */
export function doctorScratch(options: DoctorScratchOptions = {}): DoctorScratch {
  if (options.bin === undefined && !existsSync(BIN)) {
    execFileSync(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'amh-doctor-it-'));
  return {
    dir,
    baseEnv(extra = {}) {
      const env: NodeJS.ProcessEnv = {};
      for (const [key, value] of Object.entries(process.env)) {
        if (!POINTING_AT_A_DEVICE.includes(key)) env[key] = value;
      }
      env.ANDROID_MCP_ARTIFACTS_DIR = path.join(dir, 'artifacts');
      return { ...env, ...extra };
    },
    run(env, args = []) {
      return new Promise((resolve) => {
        const [command, commandArgs] =
          options.bin === undefined ? [process.execPath, [BIN, 'doctor', ...args]] : [options.bin, ['doctor', ...args]];
        const child = execFile(command, commandArgs, { env, cwd: dir, timeout: 90_000 }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          const marks: Record<string, string> = {};
          for (const line of String(stdout).split('\n')) {
            const match = /^(\[(?:ok {2}|MISS|-- {2})\]) (\S+)/.exec(line);
            if (match?.[1] && match[2]) marks[match[2]] = match[1];
          }
          resolve({ code, stdout: String(stdout), stderr: String(stderr), marks });
        });
        // A doctor outlives a killed test worker by at most its own timeouts; this ends it at once.
        trackChild(child);
      });
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
