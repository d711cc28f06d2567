/**
 * `android-mcp-harness flow` as a user runs it, on the virtual device through the real adb
 * and the real Appium: the documented example passes (exit 0, report on stdout or --report,
 * evidence PNGs on disk), a flow that misses stops at the first failure, closes its session
 * and exits 1, and an invalid file is refused before anything starts.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FlowReport } from '../../src/flow/runFlow.js';
import { parseFlowFile } from '../../src/flow/flowFile.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'dist', 'index.js');
const example = path.join(repoRoot, 'docs', 'flows', 'example.json');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function runFlowCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'flow', ...args], { env, cwd, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

it('the documented flows are valid flow files', () => {
  for (const file of ['example.json', 'template.json']) {
    const flow = parseFlowFile(readFileSync(path.join(repoRoot, 'docs', 'flows', file), 'utf8'), file);
    expect(flow.steps.length).toBeGreaterThan(0);
  }
});

it('an invalid flow file is refused with its JSON path and exit code 2, before any server starts', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'amh-flow-bad-'));
  try {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ package_name: 'com.x', steps: [{ tool: 'ui_tap', arguments: { session_id: 'abc', selector: { text: 'A' } } }] }));
    const run = await runFlowCli([file], { ...process.env, APPIUM_URL: 'http://127.0.0.1:9' }, dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/steps\[0\]\.arguments\.session_id: must not be given/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describeWithAdb('flow runner on the virtual device', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string;
  let workDir: string;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
    workDir = mkdtempSync(path.join(os.tmpdir(), 'amh-flow-'));
  });

  afterAll(async () => {
    if (adb && serial) await disconnectDevice(adb, serial);
    await device?.stop();
    await adb?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const base: NodeJS.ProcessEnv = { ...process.env };
    delete base.APPIUM_URL;
    return {
      ...base,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      ANDROID_MCP_ARTIFACTS_DIR: path.join(workDir, 'artifacts'),
      ...extra,
    };
  }

  it('docs/flows/example.json passes with managed Appium: exit 0, the JSON report on stdout, evidence on disk', async () => {
    const run = await runFlowCli([example], env(), workDir);
    expect(run.stderr).toMatch(/: PASSED, /);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FlowReport;
    expect(report.passed).toBe(true);
    expect(report.first_error).toBeNull();
    expect(report.steps_run).toBe(report.steps_total);
    expect(report.calls.map((c) => c.tool).slice(0, 3)).toEqual(['app_open', 'ui_get_tree', 'ui_session_open']);
    expect(report.calls.map((c) => c.tool).slice(-2)).toEqual(['ui_session_close', 'ui_get_tree']);
    expect(report.calls.every((c) => c.envelope.ok)).toBe(true);
    // One evidence file per action, each a PNG, all different (the screen changed).
    const actions = report.calls.filter((c) => ['app_open', 'ui_tap', 'ui_type_text', 'ui_scroll', 'device_back'].includes(c.tool));
    expect(report.evidence).toHaveLength(actions.length);
    const bytes = report.evidence.map((file) => readFileSync(path.join(workDir, file)));
    for (const png of bytes) expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(new Set(bytes.map((b) => b.toString('base64'))).size).toBeGreaterThan(1);
    for (const file of report.evidence) expect(run.stderr).toContain(file);
  });

  it('a flow that misses stops at the first failure, closes its session (none left in Appium) and exits 1; --report writes the file', async () => {
    const appium: RunningAppium = await startAppium({ adbPort: adb.port });
    try {
      const flowFile = path.join(workDir, 'miss.json');
      writeFileSync(
        flowFile,
        JSON.stringify({
          package_name: 'com.android.settings',
          steps: [
            { tool: 'ui_tap', arguments: { selector: { text: 'No such row anywhere' } } },
            { tool: 'device_back', arguments: {} },
          ],
        }),
      );
      const reportFile = path.join(workDir, 'miss-report.json');
      const run = await runFlowCli([flowFile, '--report', reportFile], env({ APPIUM_URL: appium.url }), workDir);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(existsSync(reportFile)).toBe(true);
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as FlowReport;
      expect(report.passed).toBe(false);
      expect(report.steps_run).toBe(1);
      expect(report.first_error).toMatchObject({ tool: 'ui_tap', phase: 'step', step_index: 0, code: 'UI_ELEMENT_NOT_FOUND' });
      expect(report.first_error?.message).toMatch(/The screen offers: /);
      expect(report.calls.map((c) => c.tool)).toEqual(['app_open', 'ui_get_tree', 'ui_session_open', 'ui_tap', 'ui_session_close', 'ui_get_tree']);
      expect(report.calls.find((c) => c.tool === 'ui_session_close')?.ok).toBe(true);
      expect(await appium.sessionIds()).toEqual([]);
      expect(run.stderr).toMatch(/FAIL step 1 ui_tap .*UI_ELEMENT_NOT_FOUND/);
    } finally {
      await appium.stop();
    }
  });
});
