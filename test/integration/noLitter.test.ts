/**
 * Nothing left in the temp directory: every process the project starts (a flow run, the HTTP
 * server and the stdio server ended by SIGTERM while they keep an Appium session, the virtual
 * device CLI ended by SIGINT, doctor) gets a temp directory of its own (TMPDIR) that is empty
 * again once it has exited. The demo's check is in demo.test.ts (one demo run per suite).
 * What the harness may write there while it runs (the cross-process device lock) must be gone
 * after its exit; the evidence goes to the artifacts directory, which is not a temp directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness } from '../e2e/support/harnessClient.js';
import { startStack, type E2eStack } from '../e2e/support/stack.js';
import { describeWithAdb } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { bearerJson } from '../support/bearerJson.js';
import { startHttpHarness } from '../support/httpHarness.js';
import { freePort } from '../support/ports.js';
import { awaitExitOrKill } from '../support/processes.js';
import { BUILT_BIN, ensureBuilt } from '../support/rawServer.js';
import { startVirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

const TOKEN = 'litter-test-token-0123456789abcdef';
const roots: string[] = [];

/** A temp directory of its own for one process: what is in it after the exit is litter. */
function ownTmp(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `amh-litter-${label}-`));
  roots.push(dir);
  return dir;
}

/** Everything under `dir`, relative, for a failure message that names the litter. */
function contents(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

function run(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 180_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_BIN, ...args],
      { env, cwd: REPO_ROOT, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 },
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

describeWithAdb('no litter: each process the project starts leaves its temp directory empty when it ends', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    ensureBuilt();
    stack = await startStack({ label: 'litter' });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a flow run (flow docs/flows/example.json), passed', async () => {
    const tmp = ownTmp('flow');
    const result = await run(
      ['flow', join(REPO_ROOT, 'docs', 'flows', 'example.json')],
      stack.harnessEnv({ TMPDIR: tmp }),
    );
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    expect(result.stdout).toContain('"passed": true');
    expect(contents(tmp)).toEqual([]);
  });

  it('the HTTP server ended by SIGTERM after a REST tap whose Appium session it still keeps', async () => {
    const tmp = ownTmp('http');
    stack.device?.setScreen('settings_home');
    const server = await startHttpHarness(stack.harnessEnv({ TMPDIR: tmp, ANDROID_MCP_HTTP_TOKEN: TOKEN }), [
      '--port',
      String(await freePort()),
    ]);
    try {
      const base = server.url.replace(/\/mcp$/, '');
      const tap = await bearerJson(base, TOKEN, 'POST', `/devices/${encodeURIComponent(stack.serial)}/tap`, {
        selector: { text: 'Apps' },
      });
      expect(tap.status, JSON.stringify(tap.json)).toBe(200);
      // The lock of the warm session is in the temp directory while the server runs.
      expect(contents(tmp).length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
    expect(server.child.signalCode ?? server.child.exitCode).not.toBeNull();
    expect(contents(tmp)).toEqual([]);
  });

  it('the stdio server ended by SIGTERM while it keeps a session', async () => {
    const tmp = ownTmp('stdio');
    stack.device?.setScreen('settings_home');
    const harness = await startHarness(stack.harnessEnv({ TMPDIR: tmp }));
    try {
      const tap = await harness.call('ui_tap', { selector: { text: 'Apps' } });
      expect(tap.envelope.ok, JSON.stringify(tap.envelope)).toBe(true);
      process.kill(harness.pid, 'SIGTERM');
      await awaitExitOrKill(harness.pid, 10_000, 100);
    } finally {
      await harness.close();
    }
    expect(contents(tmp)).toEqual([]);
  });

  it('the virtual device CLI ended by SIGINT, and doctor', async () => {
    const deviceTmp = ownTmp('vd');
    const device = await startVirtualDeviceProcess({ env: { TMPDIR: deviceTmp } });
    process.kill(device.pid, 'SIGINT');
    await awaitExitOrKill(device.pid, 10_000, 100);
    await device.stop();
    expect(contents(deviceTmp)).toEqual([]);

    const doctorTmp = ownTmp('doctor');
    const doctor = await run(['doctor'], stack.harnessEnv({ TMPDIR: doctorTmp }), 120_000);
    expect(doctor.stdout + doctor.stderr).toContain('Everything a real run needs is in place.');
    expect(contents(doctorTmp)).toEqual([]);
  });
});
