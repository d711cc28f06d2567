/**
 * End to end: app_logs and app_crashes over real stdio (the built bin, the SDK
 * Client) through the real adb on the virtual device, with ANDROID_MCP_TOOLSETS=diagnostics.
 * First the device's raw logcat through the real adb, then the harness's answer. The crash is
 * the scenario's scripted one (the Clock's Add alarm), reached with ui_tap as a model would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess, type ToolAnswer, type WireEnvelope } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';

const CLOCK = 'com.google.android.deskclock';

let stack: E2eStack;
let harness: HarnessProcess;

/** The device's own answer through the real adb. */
async function adbText(args: readonly string[]): Promise<string> {
  const result = await stack.adb(args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.toString('utf8');
}

function ok(answer: ToolAnswer): WireEnvelope {
  expect(answer.envelope.ok, JSON.stringify(answer.envelope.error)).toBe(true);
  return answer.envelope;
}

(ON_EMULATOR ? describe.skip : describeWithAdb)('diagnostics toolset on the virtual device', () => {
  beforeAll(async () => {
    stack = await startStack({ label: 'diagnostics' });
    // The warm session would hold UiAutomation after ui_tap; these reads need none, but app_open dumps.
    harness = await startHarness(
      stack.harnessEnv({ ANDROID_MCP_TOOLSETS: 'diagnostics', ANDROID_MCP_WARM_SESSION_TIMEOUT: '0' }),
    );
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  it('lists both tools as read-only observers, and the instructions name them', async () => {
    const { tools } = await harness.client.listTools();
    for (const name of ['app_logs', 'app_crashes']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool?.outputSchema).toBeDefined();
    }
    expect(harness.client.getInstructions()).toMatch(/app_logs.*app_crashes/);
  });

  it('app_logs: the lines a launched app wrote, by its pid; before the launch, a clear "not running"', async () => {
    const before = ok(await harness.call('app_logs', { package_name: CLOCK }));
    expect(before.data).toMatchObject({ running: false, pids: [], lines: [], count: 0 });
    expect(String(before.data.note)).toMatch(/no running process/);

    ok(await harness.call('app_open', { package_name: CLOCK }));
    const device = stack.device!;
    // The device's own answer first: its process and its lines, through the real adb.
    const ps = await adbText(['shell', 'ps', '-A', '-o', 'PID,NAME']);
    const pid = Number(/^\s*(\d+) com\.google\.android\.deskclock$/m.exec(ps)?.[1]);
    expect(pid).toBeGreaterThan(0);
    const raw = await adbText([
      'shell',
      'logcat',
      '-d',
      '-v',
      'threadtime',
      '-v',
      'year',
      '-v',
      'UTC',
      '-t',
      '100',
      `--pid=${pid}`,
    ]);
    expect(raw).toMatch(/^--------- beginning of main\r?\n/);
    expect(raw).toContain('Late-enabling -Xcheck:jni');

    const logs = ok(await harness.call('app_logs', { package_name: CLOCK }));
    expect(logs.evidence).toBeNull();
    expect(logs.data).toMatchObject({ package: CLOCK, running: true, pids: [pid], min_level: 'V' });
    const lines = logs.data.lines as { time: string; pid: number; level: string; tag: string; message: string }[];
    expect(lines.map((l) => l.message)).toContain('Late-enabling -Xcheck:jni');
    expect(lines.every((l) => l.pid === pid)).toBe(true);
    expect(lines[0]?.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const info = ok(await harness.call('app_logs', { package_name: CLOCK, lines: 2, min_level: 'I' }));
    expect((info.data.lines as { level: string }[]).map((l) => l.level)).toEqual(['I', 'I']);
    expect(device.log().some((e) => e.kind === 'shell' && /logcat .*--pid=/.test(e.detail))).toBe(true);
  });

  it('app_crashes: the scripted crash (ui_tap on Add alarm) shows up with its exception and stack; since filters it', async () => {
    const start = new Date(Date.now() - 1_000).toISOString();
    const none = ok(await harness.call('app_crashes', { package_name: CLOCK }));
    expect(none.data).toMatchObject({ count: 0, crashes: [] });

    ok(await harness.call('app_open', { package_name: CLOCK }));
    const pid = Number(
      /^\s*(\d+) com\.google\.android\.deskclock$/m.exec(await adbText(['shell', 'ps', '-A', '-o', 'PID,NAME']))?.[1],
    );
    ok(await harness.call('ui_tap', { selector: { content_desc: 'Add alarm' } }));
    // The device first: the crash buffer through the real adb, and the process gone.
    const raw = await adbText(['shell', 'logcat', '-b', 'crash', '-d', '-v', 'threadtime', '-v', 'year', '-v', 'UTC']);
    expect(raw).toContain(`AndroidRuntime: Process: ${CLOCK}, PID: ${pid}`);
    expect(await adbText(['shell', 'ps', '-A', '-o', 'PID,NAME'])).not.toContain(CLOCK);

    const crashes = ok(await harness.call('app_crashes', { package_name: CLOCK, since: start }));
    expect(crashes.data).toMatchObject({ package: CLOCK, since: start, count: 1 });
    const [crash] = crashes.data.crashes as {
      kind: string;
      process: string;
      pid: number;
      exception: string;
      stack: string[];
      time: string;
    }[];
    expect(crash).toMatchObject({
      kind: 'crash',
      process: CLOCK,
      pid,
      exception: 'java.lang.IllegalStateException: Fragment AlarmClockFragment{4f3a2b1} not attached to a context.',
    });
    expect(crash?.stack[1]).toBe(
      '\tat com.android.deskclock.alarms.AlarmClockFragment.onAddAlarm(AlarmClockFragment.java:212)',
    );
    expect(crash?.stack.length).toBe(12);
    expect(Date.parse(crash?.time ?? '')).toBeGreaterThanOrEqual(Date.parse(start));
    const later = ok(await harness.call('app_crashes', { since: new Date(Date.now() + 60_000).toISOString() }));
    expect(later.data).toMatchObject({ count: 0 });
    // After the crash the app runs no process: app_logs says so and points at app_crashes.
    expect(ok(await harness.call('app_logs', { package_name: CLOCK })).data).toMatchObject({ running: false });
  });

  it('app_crashes: an ANR of the app in front shows up with its reason', async () => {
    ok(await harness.call('app_open', { package_name: CLOCK }));
    stack.device!.recordAnr({ reason: 'Input dispatching timed out (Waited 5001ms for KeyEvent)' });
    const answer = ok(await harness.call('app_crashes', { package_name: CLOCK }));
    const anr = (answer.data.crashes as { kind: string; reason?: string }[]).find((c) => c.kind === 'anr');
    expect(anr).toMatchObject({ kind: 'anr', reason: 'Input dispatching timed out (Waited 5001ms for KeyEvent)' });
    stack.device!.clearAnr();
  });
});
