/**
 * `npm run demo` after its build step: `node dist/demo/demo.js` must pass the example flow
 * through the real stack and leave nothing running: the adb server, the virtual device and
 * the managed Appium it started all stop listening once it has exited, and its temp directory
 * is empty again.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const demo = path.join(repoRoot, 'dist', 'demo', 'demo.js');

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function closedWithin(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await listening(port)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}

describeWithAdb('npm run demo', () => {
  let cwd: string;
  beforeAll(() => {
    if (!existsSync(demo)) {
      execFileSync(
        process.execPath,
        [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        { cwd: repoRoot, stdio: 'inherit' },
      );
    }
    cwd = mkdtempSync(path.join(os.tmpdir(), 'amh-demo-'));
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  it('passes the example flow with managed Appium, prints the evidence, and stops everything it started', async () => {
    // A temp directory of its own: whatever the demo (and what it starts) leaves there is litter.
    const tmp = mkdtempSync(path.join(cwd, 'tmp-'));
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env.APPIUM_URL;
    delete env.ANDROID_ADB_SERVER_PORT;
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [demo], { cwd, env, timeout: 180_000 }, (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        });
      });
    });
    expect(run.stderr).toContain('demo: the example flow passed.');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/example\.json \(com\.android\.settings\): PASSED, 7\/7 steps/);

    const evidence = [...run.stdout.matchAll(/^ {2}(\/\S+\.png)$/gm)].map((m) => m[1] as string);
    expect(evidence.length).toBe(8);
    // Each thing once: one list of the evidence files (each step's line names its id), and no command
    // that is not on PATH in a checkout.
    const relative = (file: string): string => path.relative(cwd, file);
    for (const file of evidence) expect(run.stdout.split(relative(file)).length - 1, file).toBe(1);
    expect(run.stdout).not.toMatch(/^evidence \(|android-mcp-harness trace/m);
    for (const file of evidence) {
      expect(file.startsWith(path.join(cwd, 'artifacts'))).toBe(true);
      expect(readFileSync(file).subarray(1, 4).toString('ascii')).toBe('PNG');
    }

    // It ends by naming the trace's viewer page: one self-contained file, every evidence PNG in it.
    const viewer = /Trace viewer \(open it in a browser\): (\/\S+index\.html)\n*$/.exec(run.stdout)?.[1] ?? '';
    expect(viewer.startsWith(path.join(cwd, 'artifacts', 'traces'))).toBe(true);
    const html = readFileSync(viewer, 'utf8');
    for (const file of evidence) expect(html).toContain(readFileSync(file).toString('base64').slice(0, 200));
    // The replay command it suggests runs as printed (from the demo's directory) and writes a flow file.
    const replay = /^Replay it as a flow file: node (\S+) (trace export \S+ --format flow)$/m.exec(run.stdout);
    expect(replay?.[1]).toBe(path.join(repoRoot, 'dist', 'index.js'));
    const exported = execFileSync(process.execPath, [replay?.[1] ?? '', ...(replay?.[2] ?? '').split(' ')], {
      cwd,
      encoding: 'utf8',
    });
    expect(JSON.parse(readFileSync(path.resolve(cwd, exported.trim()), 'utf8'))).toMatchObject({
      package_name: 'com.android.settings',
    });

    const adbPort = Number(/private adb server .* on 127\.0\.0\.1:(\d+)/.exec(run.stderr)?.[1]);
    const devicePort = Number(/virtual device on 127\.0\.0\.1:(\d+)/.exec(run.stderr)?.[1]);
    const appiumPort = Number(/own Appium [^\n]* on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stdout)?.[1]);
    for (const port of [adbPort, devicePort, appiumPort]) expect(port).toBeGreaterThan(0);
    expect(await closedWithin(adbPort, 2_000)).toBe(true);
    expect(await closedWithin(devicePort, 2_000)).toBe(true);
    // The harness's Appium stops with the harness (watchdog on its stdin pipe).
    expect(await closedWithin(appiumPort, 10_000)).toBe(true);
    // Nothing left in the temp directory: no lock directory, no adb or Appium files.
    expect(readdirSync(tmp, { recursive: true })).toEqual([]);
  });
});
