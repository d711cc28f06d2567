import { describe, expect, it } from 'vitest';
import { wireBytesOfResult, ANSWER_BUDGET_BYTES } from '../../../../src/domain/summary/answerBudget.js';
import { buildHarness } from '../../../support/fakes/harness.js';

const line = (time: string, pid: number, level: string, tag: string, message: string) =>
  `2026-12-01 ${time} +0000 ${String(pid).padStart(5)} ${String(pid).padStart(5)} ${level} ${tag.padEnd(8)}: ${message}`;

function harness() {
  const h = buildHarness({ toolsets: ['core', 'diagnostics'] });
  h.device.processes = [
    { pid: 541, name: 'system_server' },
    { pid: 4400, name: 'com.example.app:remote' },
    { pid: 4321, name: 'com.example.app' },
    { pid: 4500, name: 'com.example.apps' },
  ];
  h.device.appLogs = {
    4321: [
      '--------- beginning of main',
      line('22:46:40.100', 4321, 'I', 'Main', 'onCreate'),
      line('22:46:42.000', 4321, 'E', 'Main', 'failed: timeout'),
      '',
    ].join('\n'),
    4400: [line('22:46:41.000', 4400, 'D', 'Sync', 'tick'), line('22:46:41.500', 4400, 'W', 'Sync', 'slow')].join('\n'),
  };
  return h;
}

describe('app_logs (toolset diagnostics)', () => {
  it('reads each process of the package by pid (main first), merges by time, and never reads another package', async () => {
    const h = harness();
    const answer = await h.envelope('app_logs', { package_name: 'com.example.app' });
    expect(answer).toMatchObject({
      ok: true,
      evidence: null,
      data: { package: 'com.example.app', running: true, pids: [4321, 4400], min_level: 'V', count: 4 },
    });
    expect((answer.data as { lines: { message: string }[] }).lines.map((l) => l.message)).toEqual([
      'onCreate',
      'tick',
      'slow',
      'failed: timeout',
    ]);
    expect((answer.data as { lines: unknown[] }).lines[0]).toEqual({
      time: '2026-12-01T22:46:40.100Z',
      pid: 4321,
      tid: 4321,
      level: 'I',
      tag: 'Main',
      message: 'onCreate',
    });
    expect(h.device.logReads).toEqual([
      { pid: 4321, lines: 100 },
      { pid: 4400, lines: 100 },
    ]);
    expect(h.container.tools.find((t) => t.name === 'app_logs')?.annotations).toEqual({
      readOnlyHint: true,
      openWorldHint: false,
    });
  });

  it('filters by min_level on the host, reading more lines so the count is of the lines kept', async () => {
    const h = harness();
    const answer = await h.envelope('app_logs', { package_name: 'com.example.app', lines: 1, min_level: 'W' });
    expect((answer.data as { lines: { message: string }[] }).lines.map((l) => l.message)).toEqual(['failed: timeout']);
    expect(h.device.logReads).toEqual([
      { pid: 4321, lines: 20 },
      { pid: 4400, lines: 20 },
    ]);
  });

  it('says so when the app runs no process, and refuses one that is not installed', async () => {
    const h = harness();
    h.device.processes = [{ pid: 541, name: 'system_server' }];
    const idle = await h.envelope('app_logs', { package_name: 'com.example.app' });
    expect(idle).toMatchObject({ ok: true, data: { running: false, pids: [], lines: [], count: 0 } });
    expect((idle.data as { note: string }).note).toMatch(/no running process.*app_open.*app_crashes/);
    expect(h.device.logReads).toEqual([]);
    expect((await h.envelope('app_logs', { package_name: 'com.not.there' })).error?.code).toBe('APP_NOT_FOUND');
  });

  it('stays within the answer budget when the app logs large lines', async () => {
    const h = harness();
    h.device.appLogs = {
      4321: Array.from({ length: 500 }, (_, i) =>
        line('22:46:40.100', 4321, 'I', 'Big', `${i} ${'é"'.repeat(3000)}`),
      ).join('\n'),
    };
    const result = await h.call('app_logs', { package_name: 'com.example.app', lines: 500 });
    expect(wireBytesOfResult(result)).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    const data = (result.structuredContent as { data: { lines: { message: string }[]; omitted_for_size: number } })
      .data;
    expect(data.lines.at(-1)?.message.startsWith('499 ')).toBe(true);
    expect(data.omitted_for_size).toBeGreaterThan(0);
  });

  it('refuses hostile arguments before the guard, the gate or adb', async () => {
    const refused = buildHarness({ toolsets: ['core', 'diagnostics'], udid: 'bad-serial' });
    for (const value of ['a;reboot', '$(id)', 'com.x && id', '-e', '', 3, null]) {
      expect((await refused.envelope('app_logs', { package_name: value })).error?.code, String(value)).toBe(
        'INVALID_PACKAGE',
      );
    }
    for (const lines of [0, -1, 501, 1.5, '10', Number.NaN, true]) {
      expect(
        (await refused.envelope('app_logs', { package_name: 'com.example.app', lines })).error?.code,
        String(lines),
      ).toBe('INVALID_ARGUMENT');
    }
    for (const level of ['w', 'WARN', '*:W', 'X', '', 1, ['W']]) {
      expect(
        (await refused.envelope('app_logs', { package_name: 'com.example.app', min_level: level })).error?.code,
        String(level),
      ).toBe('INVALID_ARGUMENT');
    }
    expect((await refused.envelope('app_logs', { package_name: 'com.example.app' })).error?.code).toBe(
      'EMULATOR_UNAVAILABLE',
    );
    expect(refused.device.calls).toEqual([]);
  });
});

describe('app_crashes (toolset diagnostics)', () => {
  const crash = (time: string, pid: number, pkg: string, exception: string) => [
    line(time, pid, 'E', 'AndroidRuntime', 'FATAL EXCEPTION: main'),
    line(time, pid, 'E', 'AndroidRuntime', `Process: ${pkg}, PID: ${pid}`),
    line(time, pid, 'E', 'AndroidRuntime', exception),
    line(time, pid, 'E', 'AndroidRuntime', `\tat ${pkg}.Main.onClick(Main.java:42)`),
  ];

  it('lists crashes and ANRs oldest first, of one package and since a time when asked', async () => {
    const h = harness();
    h.device.crashLog = [
      '--------- beginning of crash',
      ...crash('22:40:00.000', 4000, 'com.example.app', 'java.lang.IllegalStateException: boom'),
      ...crash('22:45:00.000', 4100, 'com.android.chrome', 'java.lang.OutOfMemoryError'),
    ].join('\n');
    h.device.anrEvents = line(
      '22:50:00.000',
      541,
      'I',
      'am_anr',
      '[0,4321,com.example.app,952745540,Input dispatching timed out (Waited 5001ms, for MotionEvent)]',
    );
    const all = await h.envelope('app_crashes', {});
    expect(all).toMatchObject({ ok: true, evidence: null, data: { since: null, count: 3 } });
    const mine = await h.envelope('app_crashes', { package_name: 'com.example.app' });
    expect(mine.data).toEqual({
      package: 'com.example.app',
      since: null,
      count: 2,
      crashes: [
        {
          kind: 'crash',
          time: '2026-12-01T22:40:00.000Z',
          process: 'com.example.app',
          pid: 4000,
          exception: 'java.lang.IllegalStateException: boom',
          stack: ['\tat com.example.app.Main.onClick(Main.java:42)'],
        },
        {
          kind: 'anr',
          time: '2026-12-01T22:50:00.000Z',
          process: 'com.example.app',
          pid: 4321,
          reason: 'Input dispatching timed out (Waited 5001ms, for MotionEvent)',
        },
      ],
    });
    const later = await h.envelope('app_crashes', {
      package_name: 'com.example.app',
      since: '2026-12-01T23:45:00+01:00',
    });
    expect(later.data).toMatchObject({ since: '2026-12-01T22:45:00.000Z', count: 1, crashes: [{ kind: 'anr' }] });
  });

  it('answers the newest ten and says how many older ones it left out', async () => {
    const h = harness();
    h.device.crashLog = Array.from({ length: 14 }, (_, i) =>
      crash(`22:${String(10 + i).padStart(2, '0')}:00.000`, 4000 + i, 'com.example.app', `java.lang.Error: ${i}`),
    )
      .flat()
      .join('\n');
    const answer = await h.envelope('app_crashes', { package_name: 'com.example.app' });
    expect(answer.data).toMatchObject({ count: 10, older_not_shown: 4 });
    expect((answer.data as { crashes: { exception: string }[] }).crashes.at(-1)?.exception).toBe('java.lang.Error: 13');
  });

  it('refuses hostile arguments before the guard, the gate or adb', async () => {
    const refused = buildHarness({ toolsets: ['core', 'diagnostics'], udid: 'bad-serial' });
    for (const value of ['a;reboot', '`id`', 'com.x|sh', 7]) {
      expect((await refused.envelope('app_crashes', { package_name: value })).error?.code, String(value)).toBe(
        'INVALID_PACKAGE',
      );
    }
    for (const since of [
      'yesterday',
      '2026-12-01',
      '2026-12-01T22:40:00',
      '2026-13-01T22:40:00Z',
      '2026-02-30T10:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-01T22:40:00+25:00',
      '2026-12-01T22:40:00Z; reboot',
      1764628800000,
      {},
    ]) {
      expect((await refused.envelope('app_crashes', { since })).error?.code, String(since)).toBe('INVALID_ARGUMENT');
    }
    expect((await refused.envelope('app_crashes', {})).error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(refused.device.calls).toEqual([]);
  });
});
