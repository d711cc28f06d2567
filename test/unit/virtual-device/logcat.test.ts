import { describe, expect, it } from 'vitest';
import { parseAnrEvents, parseCrashBuffer } from '../../../src/domain/diagnostics/crashes.js';
import { parseThreadtime } from '../../../src/domain/diagnostics/logLine.js';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/VirtualDevice.js';
import { sh } from '../../../packages/virtual-device/test/unit/helpers.js';

const CLOCK = 'com.google.android.deskclock';
const newDevice = (): VirtualDevice => VirtualDevice.withDefaultScenario();

async function pidOf(d: VirtualDevice, name: string): Promise<number | null> {
  const ps = (await sh(d, 'ps -A -o PID,NAME')).stdout;
  const row = ps
    .split('\n')
    .map((l) => /^\s*(\d+) (\S+)$/.exec(l))
    .find((m) => m?.[2] === name);
  return row ? Number(row[1]) : null;
}

describe('the virtual device logcat', () => {
  it('ps -o PID,NAME prints the header and one row per process, as toybox does', async () => {
    const d = newDevice();
    const out = (await sh(d, 'ps -A -o PID,NAME')).stdout.split('\n');
    expect(out[0]).toBe('  PID NAME');
    expect(out).toContain('  541 system_server');
    expect((await sh(d, 'ps -A -o PID,BOGUS')).code).toBe(1);
  });

  it('an app launched gets its own pid; logcat --pid reads only its lines, -t the newest, in threadtime with year and UTC', async () => {
    const d = newDevice();
    expect(await pidOf(d, CLOCK)).toBeNull();
    await sh(d, `am start -W -n ${CLOCK}/com.android.deskclock.DeskClock`);
    const pid = await pidOf(d, CLOCK);
    expect(pid).not.toBeNull();
    const all = await sh(d, `logcat -d -v threadtime -v year -v UTC --pid=${pid}`);
    const lines = all.stdout.split('\n').filter((l) => l !== '');
    expect(lines[0]).toBe('--------- beginning of main');
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\+0000 ${String(pid).padStart(5)} ${String(pid).padStart(5)} I ${CLOCK}: Late-enabling -Xcheck:jni$`,
      ),
    );
    expect(parseThreadtime(all.stdout).every((l) => l.pid === pid)).toBe(true);
    const two = parseThreadtime((await sh(d, `logcat -d -v threadtime -v year -v UTC -t 2 --pid=${pid}`)).stdout);
    expect(two.map((l) => l.tag)).toEqual(['CompatibilityChangeReporter', 'OpenGLRenderer']);
    // Without year and UTC: logcat's default time, no zone.
    expect((await sh(d, `logcat -d -v threadtime -t 1 --pid=${pid}`)).stdout).toMatch(
      /^--------- beginning of main\n\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} +\d+ +\d+ D OpenGLRenderer|^--------- beginning of main\n\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} +\d+ +\d+ I OpenGLRenderer/,
    );
  });

  it('refuses what logcat refuses: a second --pid, a bad pid, an unknown buffer or option', async () => {
    const d = newDevice();
    expect(await sh(d, 'logcat -d --pid=1 --pid=2')).toMatchObject({
      code: 1,
      stderr: 'logcat: Only one --pid argument can be provided.\n',
    });
    expect(await sh(d, 'logcat -d --pid=abc')).toMatchObject({ code: 1, stderr: "logcat: pid 'abc' out of range.\n" });
    expect((await sh(d, 'logcat -b nope -d')).code).toBe(1);
    expect((await sh(d, 'logcat -d -Q')).code).toBe(1);
  });

  it('the scripted crash: Add alarm throws, FATAL EXCEPTION lands in the crash buffer, the process dies, the launcher comes back', async () => {
    const d = newDevice();
    await sh(d, `am start -W -n ${CLOCK}/com.android.deskclock.DeskClock`);
    const pid = await pidOf(d, CLOCK);
    expect((await sh(d, 'logcat -b crash -d')).stdout).toBe('');
    await sh(d, 'input tap 540 1984');
    expect(d.currentScreen().package).toBe('com.google.android.apps.nexuslauncher');
    expect(await pidOf(d, CLOCK)).toBeNull();
    const crash = (await sh(d, 'logcat -b crash -d -v threadtime -v year -v UTC')).stdout;
    expect(crash.split('\n')[0]).toBe('--------- beginning of crash');
    expect(crash).toContain(`E AndroidRuntime: FATAL EXCEPTION: main\n`);
    expect(crash).toContain(`E AndroidRuntime: Process: ${CLOCK}, PID: ${pid}\n`);
    expect(crash).toContain(
      'E AndroidRuntime: \tat com.android.deskclock.alarms.AlarmClockFragment.onAddAlarm(AlarmClockFragment.java:212)\n',
    );
    const [report] = parseCrashBuffer(parseThreadtime(crash));
    expect(report).toMatchObject({
      kind: 'crash',
      process: CLOCK,
      pid,
      exception: 'java.lang.IllegalStateException: Fragment AlarmClockFragment{4f3a2b1} not attached to a context.',
    });
    // The app's own line before the crash stays in main under its pid.
    expect((await sh(d, `logcat -d -s AlarmClockFragment`)).stdout).toMatch(
      new RegExp(` ${pid} +${pid} D AlarmClockFragment: onAddAlarm`),
    );
    // The default buffers include crash; the events buffer has am_crash.
    expect((await sh(d, 'logcat -d')).stdout).toContain('--------- beginning of crash');
    expect((await sh(d, 'logcat -b events -d -s am_crash')).stdout).toMatch(
      new RegExp(`I am_crash: \\[0,${pid},${CLOCK},`),
    );
    // Launched again: a new process, a new pid.
    await sh(d, `am start -W -n ${CLOCK}/com.android.deskclock.DeskClock`);
    expect(await pidOf(d, CLOCK)).not.toBe(pid);
  });

  it('an ANR writes am_anr to the events buffer; -s am_anr shows only it; -c clears', async () => {
    const d = newDevice();
    await sh(d, `am start -W -n ${CLOCK}/com.android.deskclock.DeskClock`);
    d.recordAnr({ reason: 'Input dispatching timed out (Waited 5001ms, for KeyEvent)' });
    const events = (await sh(d, 'logcat -b events -d -v threadtime -v year -v UTC -s am_anr')).stdout;
    expect(events.split('\n').filter((l) => l !== '')).toHaveLength(2);
    expect(parseAnrEvents(parseThreadtime(events))).toMatchObject([
      {
        kind: 'anr',
        process: CLOCK,
        pid: await pidOf(d, CLOCK),
        reason: 'Input dispatching timed out (Waited 5001ms, for KeyEvent)',
      },
    ]);
    await sh(d, 'logcat -b events -c');
    expect((await sh(d, 'logcat -b events -d')).stdout).toBe('');
  });
});
