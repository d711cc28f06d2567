import { describe, expect, it } from 'vitest';
import {
  belongsTo,
  parseAnrEvents,
  parseCrashBuffer,
  STACK_LINES_MAX,
} from '../../../src/domain/diagnostics/crashes.js';
import { atLeast, parseThreadtime, parseThreadtimeLine } from '../../../src/domain/diagnostics/logLine.js';
import {
  cutMessage,
  DIAGNOSTICS_BUDGET_BYTES,
  LOG_MESSAGE_CHARS_MAX,
  newestWithin,
} from '../../../src/domain/diagnostics/logBudget.js';
import { wireBytesOfJson } from '../../../src/domain/summary/answerBudget.js';

// Written for this project in the format of liblog's logprint.cpp (threadtime: "%s %5d %5d %c %-8s: ",
// `-v year` and `-v UTC`, which prints " +0000"), and of RuntimeInit.logUncaught, crash_dump and
// the am_anr event (EventLogTags.logtags 30008); not copied from a device.
const MAIN = [
  '--------- beginning of main',
  '2026-12-01 22:46:40.123 +0000  4321  4321 I com.example.notes: Late-enabling -Xcheck:jni',
  '2026-12-01 22:46:40.200 +0000  4321  4339 D OpenGLRenderer: Setting EGL_SWAP_BEHAVIOR',
  '2026-12-01 22:46:41.005 +0000  4321  4321 W System  : A resource failed to call close. ',
  '2026-12-01 23:46:41.006 +0100  4321  4321 E flutter : [ERROR] Unhandled Exception: a: b',
  '',
].join('\r\n');

const CRASH = [
  '--------- beginning of crash',
  '2026-12-01 22:47:02.511 +0000  4321  4321 E AndroidRuntime: FATAL EXCEPTION: main',
  '2026-12-01 22:47:02.511 +0000  4321  4321 E AndroidRuntime: Process: com.google.android.deskclock, PID: 4321',
  '2026-12-01 22:47:02.511 +0000  4321  4321 E AndroidRuntime: java.lang.IllegalStateException: No alarm provider',
  ...Array.from(
    { length: 15 },
    (_, i) =>
      `2026-12-01 22:47:02.512 +0000  4321  4321 E AndroidRuntime: \tat com.android.deskclock.Frame${i}.run(Frame${i}.java:${i + 10})`,
  ),
  '2026-12-01 22:48:00.000 +0000  5000  5000 F DEBUG   : *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***',
  "2026-12-01 22:48:00.000 +0000  5000  5000 F DEBUG   : Build fingerprint: 'google/sdk_gphone64_x86_64/emu64xa:14/UE1A/1:userdebug/dev-keys'",
  '2026-12-01 22:48:00.000 +0000  5000  5000 F DEBUG   : pid: 4400, tid: 4412, name: RenderThread  >>> com.example.app:render <<<',
  '2026-12-01 22:48:00.000 +0000  5000  5000 F DEBUG   : signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000',
  '2026-12-01 22:48:00.000 +0000  5000  5000 F DEBUG   : backtrace:',
  '2026-12-01 22:48:00.001 +0000  5000  5000 F DEBUG   :       #00 pc 000000000004f1a0  /data/app/lib/x86_64/libnative.so (crash+16)',
  '2026-12-01 22:49:10.000 +0000  4600  4600 E AndroidRuntime: FATAL EXCEPTION: main',
  '2026-12-01 22:49:10.000 +0000  4600  4600 E AndroidRuntime: Process: com.example.app, PID: 4600',
  '2026-12-01 22:49:10.000 +0000  4600  4600 E AndroidRuntime: java.lang.NullPointerException',
  '2026-12-01 22:49:10.000 +0000  4600  4600 E AndroidRuntime: \tat com.example.app.Main.onCreate(Main.java:5)',
].join('\n');

const EVENTS = [
  '--------- beginning of events',
  '2026-12-01 22:50:00.100 +0000   541   602 I am_anr  : [0,4500,com.example.app,952745540,Input dispatching timed out (com.example.app/.Main, Waited 5001ms for MotionEvent)]',
  '2026-12-01 22:50:00.200 +0000   541   602 I am_anr  : not a list',
].join('\n');

describe('threadtime lines', () => {
  it('reads time (UTC, zone applied), pid, tid, level, padded tag and message; skips dividers and blanks', () => {
    const lines = parseThreadtime(MAIN);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toEqual({
      time: '2026-12-01T22:46:40.123Z',
      epochMs: Date.UTC(2026, 11, 1, 22, 46, 40, 123),
      pid: 4321,
      tid: 4321,
      level: 'I',
      tag: 'com.example.notes',
      message: 'Late-enabling -Xcheck:jni',
    });
    expect(lines[2]).toMatchObject({ tag: 'System', level: 'W', message: 'A resource failed to call close. ' });
    // +0100: an hour ahead of UTC, so the same instant as 22:46 UTC; a ": " inside the message stays in it.
    expect(lines[3]).toMatchObject({
      time: '2026-12-01T22:46:41.006Z',
      tag: 'flutter',
      message: '[ERROR] Unhandled Exception: a: b',
    });
  });

  it('refuses other formats', () => {
    for (const raw of [
      '12-01 22:46:40.123  4321  4321 I Tag: no year',
      'I/Tag( 123): brief',
      '2026-12-01 22:46:40.123 +0000  x  1 I T: m',
      '',
    ]) {
      expect(parseThreadtimeLine(raw), raw).toBeNull();
    }
  });

  it('orders levels V < D < I < W < E < F', () => {
    expect(atLeast('W', 'I')).toBe(true);
    expect(atLeast('D', 'I')).toBe(false);
    expect(atLeast('F', 'F')).toBe(true);
    expect(atLeast('V', 'V')).toBe(true);
  });
});

describe('crash blocks and ANR events', () => {
  it('reads a Java crash: process, pid, the exception and the first lines of its stack', () => {
    const [first, native, second] = parseCrashBuffer(parseThreadtime(CRASH));
    expect(first).toMatchObject({
      kind: 'crash',
      time: '2026-12-01T22:47:02.511Z',
      process: 'com.google.android.deskclock',
      pid: 4321,
      exception: 'java.lang.IllegalStateException: No alarm provider',
      reason: null,
      stackTruncated: true,
    });
    expect(first?.stack).toHaveLength(STACK_LINES_MAX);
    expect(first?.stack[0]).toBe('\tat com.android.deskclock.Frame0.run(Frame0.java:10)');
    expect(native).toMatchObject({
      kind: 'native_crash',
      process: 'com.example.app:render',
      pid: 4400,
      exception: 'signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0000000000000000',
      stack: ['#00 pc 000000000004f1a0  /data/app/lib/x86_64/libnative.so (crash+16)'],
      stackTruncated: false,
    });
    expect(second).toMatchObject({
      kind: 'crash',
      process: 'com.example.app',
      pid: 4600,
      exception: 'java.lang.NullPointerException',
      stack: ['\tat com.example.app.Main.onCreate(Main.java:5)'],
    });
  });

  it('reads am_anr events, a reason with commas included, and skips what is not one', () => {
    expect(parseAnrEvents(parseThreadtime(EVENTS))).toEqual([
      {
        kind: 'anr',
        time: '2026-12-01T22:50:00.100Z',
        epochMs: Date.UTC(2026, 11, 1, 22, 50, 0, 100),
        process: 'com.example.app',
        pid: 4500,
        exception: null,
        reason: 'Input dispatching timed out (com.example.app/.Main, Waited 5001ms for MotionEvent)',
        stack: [],
        stackTruncated: false,
      },
    ]);
  });

  it('a package owns its main process and its pkg:name ones, not a longer name', () => {
    expect(belongsTo({ process: 'com.example.app' }, 'com.example.app')).toBe(true);
    expect(belongsTo({ process: 'com.example.app:render' }, 'com.example.app')).toBe(true);
    expect(belongsTo({ process: 'com.example.apps' }, 'com.example.app')).toBe(false);
  });
});

describe('the size bounds', () => {
  it('keeps the newest items that fit the budget, in order, and counts the rest', () => {
    const items = Array.from({ length: 1_000 }, (_, i) => ({ n: i, message: 'x'.repeat(100) }));
    const { kept, dropped } = newestWithin(items);
    expect(kept.at(-1)?.n).toBe(999);
    expect(kept.length + dropped).toBe(1_000);
    expect(dropped).toBeGreaterThan(0);
    expect(wireBytesOfJson(JSON.stringify(kept))).toBeLessThanOrEqual(DIAGNOSTICS_BUDGET_BYTES);
    expect(newestWithin([{ a: 1 }, { a: 2 }], 10_000)).toEqual({ kept: [{ a: 1 }, { a: 2 }], dropped: 0 });
  });

  it('cuts a long message without splitting a surrogate pair', () => {
    expect(cutMessage('short')).toBe('short');
    const long = `${'a'.repeat(LOG_MESSAGE_CHARS_MAX - 1)}😀tail`;
    const cut = cutMessage(long);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(LOG_MESSAGE_CHARS_MAX + 1);
    expect(cut).not.toMatch(/[\ud800-\udbff]…$/);
  });
});
