/**
 * `android-mcp-harness flow` as a user runs it, on the virtual device through the real adb
 * and the real Appium: the documented example passes (exit 0, report on stdout or --report,
 * evidence PNGs on disk), a flow that misses stops at the first failure, closes its session
 * and exits 1, an invalid file is refused whole before anything starts (no server, no Appium
 * session, no evidence), and a flow of the opt-in toolsets' tools passes with them on.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FlowReport } from '../../src/flow/runFlow.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';
import { optInFlow } from '../support/optInFlow.js';

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
    execFile(
      process.execPath,
      [bin, 'flow', ...args],
      { env, cwd, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        });
      },
    );
  });
}

describeWithAdb('flow runner on the virtual device', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string;
  let workDir: string;
  /** One Appium for the tests that do not test the managed one. */
  let appium: RunningAppium;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
    workDir = mkdtempSync(path.join(os.tmpdir(), 'amh-flow-'));
    appium = await startAppium({ adbPort: adb.port });
  }, 120_000);

  afterAll(async () => {
    await appium?.stop();
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
    const actions = report.calls.filter((c) =>
      ['app_open', 'ui_tap', 'ui_type_text', 'ui_scroll', 'device_back'].includes(c.tool),
    );
    expect(report.evidence).toHaveLength(actions.length);
    const bytes = report.evidence.map((file) => readFileSync(path.join(workDir, file)));
    for (const png of bytes) expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(new Set(bytes.map((b) => b.toString('base64'))).size).toBeGreaterThan(1);
    for (const file of report.evidence) expect(run.stderr).toContain(file);
  });

  it('a flow that misses stops at the first failure, closes its session (none left in Appium) and exits 1; --report writes the file', async () => {
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
    expect(report.first_error).toMatchObject({
      tool: 'ui_tap',
      phase: 'step',
      step_index: 0,
      code: 'UI_ELEMENT_NOT_FOUND',
    });
    expect(report.first_error?.message).toMatch(/The screen offers: /);
    expect(report.calls.map((c) => c.tool)).toEqual([
      'app_open',
      'ui_get_tree',
      'ui_session_open',
      'ui_tap',
      'ui_session_close',
      'ui_get_tree',
    ]);
    expect(report.calls.find((c) => c.tool === 'ui_session_close')?.ok).toBe(true);
    expect(await appium.sessionIds()).toEqual([]);
    expect(run.stderr).toMatch(/FAIL step 1 ui_tap .*UI_ELEMENT_NOT_FOUND/);
    // A failed flow shows the server's last log lines, and its heading is never left empty.
    expect(run.stderr).toMatch(/\nserver log \(last lines\):\n {2}\S/);
  });

  it('an invalid file is refused whole, every problem with its step number, exit code 2, before anything starts', async () => {
    const flowFile = path.join(workDir, 'bad.json');
    writeFileSync(
      flowFile,
      JSON.stringify({
        package_name: 'com.android.settings',
        steps: [
          { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
          { tool: 'ui_tap', arguments: { x: 540, y: 800 } },
          { tool: 'ui_scroll', arguments: { direction: 'Down' } },
          { tool: 'ui_wait', arguments: { selector: { text: 'Apps' }, until: 'visible' } },
          { tool: 'app_open', arguments: {} },
          { tool: 'ui_tap', arguments: { selector: { text: 'Apps' }, session_id: 'abc' } },
        ],
      }),
    );
    const artifacts = path.join(workDir, 'bad-artifacts');
    const appiumLogBefore = readFileSync(appium.logFile, 'utf8').length;
    const run = await runFlowCli(
      [flowFile],
      env({ APPIUM_URL: appium.url, ANDROID_MCP_ARTIFACTS_DIR: artifacts }),
      workDir,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `flow: ${flowFile} is not a valid flow:\n` +
        "  - step 2 (ui_tap): Invalid argument 'x', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so name the element with a selector or a ref from ui_get_tree; ui_tap takes only selector, long_press, observe.\n" +
        "  - step 2 (ui_tap): Invalid argument 'y', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so name the element with a selector or a ref from ui_get_tree; ui_tap takes only selector, long_press, observe.\n" +
        '  - step 2 (ui_tap): selector is missing\n' +
        "  - step 3 (ui_scroll): direction 'Down' is not one of up, down, left, right\n" +
        "  - step 4 (ui_wait): ui_wait belongs to the toolset 'wait', which is off: run the flow with --toolsets wait (or ANDROID_MCP_TOOLSETS=wait)\n" +
        '  - step 5 (app_open): package_name is missing\n' +
        '  - step 6 (ui_tap): session_id must not be given: the runner opens the UI session and puts its id in every step\n',
    );
    // Nothing was set up: no server (stderr is the refusal alone, none of a server's log), no
    // Appium session ever asked for, no evidence.
    expect(readFileSync(appium.logFile, 'utf8').slice(appiumLogBefore)).not.toMatch(/POST \/session/);
    expect(await appium.sessionIds()).toEqual([]);
    expect(existsSync(artifacts)).toBe(false);
  });

  it('a flow of ui_wait, app_open, device_key and app_stop passes with --toolsets wait,device,apps', async () => {
    const flowFile = path.join(workDir, 'toolsets.json');
    writeFileSync(flowFile, JSON.stringify(optInFlow({ appStop: true })));
    // Without the toolsets the same file is refused before anything starts.
    const refused = await runFlowCli([flowFile], env({ APPIUM_URL: appium.url }), workDir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /step 4 \(device_key\): device_key belongs to the toolset 'device', which is off: run the flow with --toolsets device/,
    );
    const run = await runFlowCli(
      [flowFile, '--toolsets', 'wait,device,apps'],
      env({ APPIUM_URL: appium.url }),
      workDir,
    );
    expect(run.stderr).toMatch(/: PASSED, 8\/8 steps/);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FlowReport;
    expect(report.calls.filter((c) => c.phase === 'step').map((c) => [c.tool, c.ok])).toEqual([
      ['ui_wait', true],
      ['ui_tap', true],
      ['ui_wait', true],
      ['device_key', true],
      ['ui_wait', true],
      ['app_stop', true],
      ['app_open', true],
      ['ui_wait', true],
    ]);
    // Every step ran inside the flow.
    for (const c of report.calls.filter((call) => call.phase === 'step'))
      expect(c.arguments.session_id).toBe('<session_id>');
    expect(run.stderr).toMatch(/ok {3}step 4 device_key — pressed home, /);
    expect(await appium.sessionIds()).toEqual([]);
  });
});
