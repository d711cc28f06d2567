/**
 * `npm run demo`: the harness end to end with nothing but Node and adb on the machine.
 * Starts a private adb server and the virtual device (each on a free loopback port, each a
 * child we hold by pid), connects them, runs docs/flows/example.json through the built
 * server over stdio with the harness's own Appium (real adb, real Appium 3 + UiAutomator2,
 * real webdriverio), prints the summary and the evidence, and stops everything it started.
 * This is a CLI: its summary goes to stdout; progress goes to stderr.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateAdb } from '../infrastructure/adb/adbLocator.js';
import { findPackageRoot } from '../infrastructure/appium/appiumInstall.js';
import { freeLoopbackPort, waitForLoopbackPort } from '../infrastructure/net/loopbackPorts.js';
import { runFlowFile } from '../flow/cli.js';
import type { FlowReport } from '../flow/runFlow.js';
import { writeViewer } from '../trace/viewer.js';

const say = (line: string): void => {
  process.stderr.write(`demo: ${line}\n`);
};

/** Resolves once `child` listens on 127.0.0.1:port; fails at once when it exits first. */
function waitForPort(port: number, timeoutMs: number, child: ChildProcess, what: string): Promise<void> {
  return waitForLoopbackPort(port, {
    timeoutMs,
    intervalMs: 100,
    what,
    stillStarting: () => {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before listening`);
    },
  });
}

function adb(
  adbPath: string,
  adbPort: number,
  args: readonly string[],
  timeoutMs = 15_000,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      adbPath,
      ['-P', String(adbPort), ...args],
      { timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${String(stdout)}${String(stderr)}` });
      },
    );
  });
}

async function stopChild(child: ChildProcess | null, graceMs = 3000): Promise<void> {
  if (!child || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Every child the demo started, so a signal handler can end them by pid. */
const startedChildren: ChildProcess[] = [];

export interface DemoResult {
  readonly report: FlowReport;
  readonly serial: string;
}

export async function runDemo(options: { flowFile?: string; out?: (line: string) => void } = {}): Promise<DemoResult> {
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`)); // stdout-ok: the demo's summary
  const root = findPackageRoot(fileURLToPath(import.meta.url));
  const serverScript = path.join(root, 'dist', 'index.js');
  const flowFile = options.flowFile ?? path.join(root, 'docs', 'flows', 'example.json');
  const located = locateAdb(process.env);
  if (!located) {
    throw new Error(
      'adb was not found. Install it (Debian/Ubuntu: sudo apt-get install -y adb; macOS: brew install android-platform-tools) or set ANDROID_HOME, then run the demo again.',
    );
  }
  const started = startedChildren;
  let adbServer: ChildProcess | null = null;
  let device: ChildProcess | null = null;
  let adbPort = 0;
  let serial = '';
  try {
    adbPort = await freeLoopbackPort();
    say(`starting a private adb server (${located.path}) on 127.0.0.1:${adbPort}`);
    // A private server never touches the user's own adb server or emulators; 5553 stops its emulator-port scan.
    adbServer = spawn(located.path, ['-P', String(adbPort), 'nodaemon', 'server'], {
      env: { ...process.env, ADB_LOCAL_TRANSPORT_MAX_PORT: '5553' },
      stdio: 'ignore',
    });
    started.push(adbServer);
    await waitForPort(adbPort, 10_000, adbServer, 'the adb server');

    const devicePort = await freeLoopbackPort();
    say(`starting the virtual device on 127.0.0.1:${devicePort}`);
    device = spawn(process.execPath, [serverScript, 'virtual-device', '--port', String(devicePort), '--quiet'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    started.push(device);
    // Its own instructions are for people running it by hand: keep them for a failure only.
    let deviceOutput = '';
    device.stderr?.on('data', (chunk: Buffer) => {
      deviceOutput = `${deviceOutput}${chunk.toString('utf8')}`.slice(-4000);
    });
    try {
      await waitForPort(devicePort, 15_000, device, 'the virtual device');
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${deviceOutput}`, { cause: error });
    }

    serial = `127.0.0.1:${devicePort}`;
    const connected = await adb(located.path, adbPort, ['connect', serial]);
    if (connected.code !== 0 || !/connected to/.test(connected.output))
      throw new Error(`adb connect ${serial} failed: ${connected.output.trim()}`);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const listed = await adb(located.path, adbPort, ['devices']);
      if (new RegExp(`^${serial.replace(/\./g, '\\.')}\\s+device$`, 'm').test(listed.output)) break;
      if (Date.now() > deadline) throw new Error(`${serial} never became "device" in adb devices:\n${listed.output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const shown = path.relative(process.cwd(), flowFile);
    say(
      `${serial} is online; running ${shown && !shown.startsWith('..') ? shown : flowFile} through the harness (managed Appium)`,
    );

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ANDROID_ADB_SERVER_PORT: String(adbPort),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
    };
    // The demo shows the zero-setup path: the harness starts its own Appium.
    delete env.APPIUM_URL;
    const summary: string[] = [];
    const report = await runFlowFile({
      file: flowFile,
      connection: { serverScript, env, cwd: process.cwd() },
      log: (line) => summary.push(line),
    });
    // The summary's own evidence and trace lines are left out: both are printed below, once each,
    // the trace with commands that run from here (the summary names the installed bin, not on PATH in a checkout).
    for (const line of summary) if (!/^(evidence \(|trace: )/.test(line)) out(line);
    if (report.evidence.length > 0) {
      out('');
      out('Evidence PNGs (open them to see each step):');
      // The flow names each file relative to the server's working directory (this one), `~/…` or absolute.
      for (const file of report.evidence) out(`  ${file.startsWith('~/') ? file : path.resolve(process.cwd(), file)}`);
    }
    if (report.trace && !report.trace.startsWith('~/')) {
      // Every call of the run, step by step with its screenshots: the page a person opens.
      try {
        const page = writeViewer(path.resolve(process.cwd(), report.trace));
        const cli = harnessCommand(serverScript);
        out('');
        out(`Replay it as a flow file: ${cli} trace export ${report.trace} --format flow`);
        out(`Trace viewer (open it in a browser): ${page}`);
      } catch (error) {
        say(`the trace viewer could not be written: ${(error as Error).message}`);
      }
    }
    return { report, serial };
  } finally {
    if (serial && adbServer?.exitCode === null) await adb(located.path, adbPort, ['disconnect', serial], 5_000);
    await stopChild(device);
    await stopChild(adbServer);
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    say(
      'stopped everything the demo started (virtual device, adb server; the harness and its Appium exited with their stdin)',
    );
  }
}

/** How to run the harness's CLI from here: `node dist/index.js` in a checkout, the absolute path elsewhere. */
function harnessCommand(serverScript: string): string {
  const relative = path.relative(process.cwd(), serverScript);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : serverScript;
  return `node ${shown.includes(' ') ? JSON.stringify(shown) : shown}`;
}

async function main(): Promise<void> {
  try {
    const { report } = await runDemo();
    process.exitCode = report.passed ? 0 : 1;
    say(
      report.passed ? 'the example flow passed.' : 'the example flow FAILED; the summary above names the first error.',
    );
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}

// Run when executed directly (node dist/demo/demo.js), not when imported by a test.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`${signal} received; stopping what the demo started`);
      for (const child of startedChildren)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      // The harness server sees its stdin close when we exit, and its Appium follows it.
      process.exit(130);
    });
  }
  void main();
}
