import { describe, expect, it } from 'vitest';
import { CRASH_LINE_CHARS_MAX, parseAnrEvents, parseCrashBuffer } from '../../../../src/domain/diagnostics/crashes.js';
import { parseThreadtime, parseThreadtimeLine } from '../../../../src/domain/diagnostics/logLine.js';
import { cutMessage, LOG_MESSAGE_CHARS_MAX, newestWithin } from '../../../../src/domain/diagnostics/logBudget.js';
import { wireBytesOfJson } from '../../../../src/domain/summary/answerBudget.js';

// Lines in liblog's threadtime format (logprint.cpp), written for this file; not copied from a device.
function line(pid: number, tag: string, message: string, second = 0): string {
  const s = String(second).padStart(2, '0');
  return `2026-12-01 22:47:${s}.000 +0000 ${String(pid).padStart(5)} ${String(pid).padStart(5)} E ${tag.padEnd(8)}: ${message}`;
}

const crashes = (...rows: string[]) => parseCrashBuffer(parseThreadtime(rows.join('\n')));

describe('threadtime lines, at their edges', () => {
  it('a zone east or west of UTC, or none, moves the time by its hours and minutes', () => {
    const at = (zone: string) => parseThreadtimeLine(`2026-12-01 22:46:40.123${zone}  1  2 I Tag: m`)?.time;
    expect(at(' +0130')).toBe('2026-12-01T21:16:40.123Z');
    expect(at(' -0245')).toBe('2026-12-02T01:31:40.123Z');
    expect(at('')).toBe('2026-12-01T22:46:40.123Z');
  });

  it('reads pid, tid and a tag without padding; S (silent) is no entry; one CR is dropped (a second leaves no line)', () => {
    expect(parseThreadtimeLine('2026-12-01 22:46:40.123 +0000 12 34 D Tag: said: twice\r')).toEqual({
      time: '2026-12-01T22:46:40.123Z',
      epochMs: Date.UTC(2026, 11, 1, 22, 46, 40, 123),
      pid: 12,
      tid: 34,
      level: 'D',
      tag: 'Tag',
      message: 'said: twice',
    });
    expect(parseThreadtimeLine('2026-12-01 22:46:40.123 +0000 12 34 S Tag: m')).toBeNull();
    expect(parseThreadtimeLine('2026-12-01 22:46:40.123 +0000 12 34 I Tag: m\r\r')).toBeNull();
  });
});

describe('crashes: what a block is', () => {
  it('a Java crash without its Process line takes the writer pid and no process name', () => {
    const [report] = crashes(
      line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main'),
      line(77, 'AndroidRuntime', 'java.lang.Error: x'),
      line(77, 'AndroidRuntime', '\tat A.b(A.java:1)'),
    );
    expect(report).toMatchObject({ kind: 'crash', process: '', pid: 77, exception: 'java.lang.Error: x' });
    expect(report?.stack).toEqual(['\tat A.b(A.java:1)']);
    expect(report?.stackTruncated).toBe(false);
  });

  it('a stack of exactly 12 lines is whole; 13 are cut to 12 and say so', () => {
    const crash = (frames: number) =>
      crashes(
        line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main'),
        line(77, 'AndroidRuntime', 'java.lang.Error: x'),
        ...Array.from({ length: frames }, (_, i) => line(77, 'AndroidRuntime', `\tat F${i}.run(F.java:1)`)),
      )[0];
    expect(crash(12)).toMatchObject({ stackTruncated: false });
    expect(crash(12)?.stack).toHaveLength(12);
    expect(crash(13)).toMatchObject({ stackTruncated: true });
    expect(crash(13)?.stack).toHaveLength(12);
  });

  it('a FATAL line alone is a crash with no exception and no stack', () => {
    expect(crashes(line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main'))).toEqual([
      {
        kind: 'crash',
        time: '2026-12-01T22:47:00.000Z',
        epochMs: Date.UTC(2026, 11, 1, 22, 47, 0),
        process: '',
        pid: 77,
        exception: null,
        reason: null,
        stack: [],
        stackTruncated: false,
      },
    ]);
  });

  it("another pid's line or another tag ends a block; a later line of the first pid starts nothing", () => {
    const [report] = crashes(
      line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main'),
      line(77, 'AndroidRuntime', 'Process: com.a, PID: 77'),
      line(77, 'AndroidRuntime', 'java.lang.Error: x'),
      line(88, 'AndroidRuntime', '\tat Other.pid(O.java:1)'),
      line(77, 'AndroidRuntime', '\tat After.other(A.java:1)'),
    );
    expect(report?.stack).toEqual([]);
    const [second] = crashes(
      line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main'),
      line(77, 'AndroidRuntime', 'Process: com.a, PID: 77'),
      line(77, 'AndroidRuntime', 'java.lang.Error: x'),
      line(77, 'OtherTag', 'between'),
      line(77, 'AndroidRuntime', '\tat After.tag(A.java:1)'),
    );
    expect(second?.stack).toEqual([]);
  });

  it('a long exception line is cut to 300 characters, a line of exactly 300 is not', () => {
    const exact = 'e'.repeat(CRASH_LINE_CHARS_MAX);
    const of = (exception: string) =>
      crashes(line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main'), line(77, 'AndroidRuntime', exception))[0]?.exception;
    expect(of(exact)).toBe(exact);
    expect(of(`${exact}x`)).toBe(`${exact}…`);
  });

  it('a native crash: the first pid line and the first signal line count, frames are trimmed', () => {
    const [report] = crashes(
      line(5000, 'DEBUG', '*** *** *** *** ***'),
      line(5000, 'DEBUG', 'pid: 10, tid: 11, name: main  >>> com.a <<<'),
      line(5000, 'DEBUG', 'pid: 20, tid: 21, name: main  >>> com.b <<<'),
      line(5000, 'DEBUG', 'signal 6 (SIGABRT), code -1'),
      line(5000, 'DEBUG', 'signal 11 (SIGSEGV), code 1'),
      line(5000, 'DEBUG', '      #00 pc 0001  /lib/a.so'),
      line(5000, 'DEBUG', 'not a frame'),
    );
    expect(report).toMatchObject({
      kind: 'native_crash',
      pid: 10,
      process: 'com.a',
      exception: 'signal 6 (SIGABRT), code -1',
      stack: ['#00 pc 0001  /lib/a.so'],
    });
  });

  it('a native banner without a pid line is no report; one without a signal has no exception', () => {
    expect(crashes(line(5000, 'DEBUG', '*** *** ***'), line(5000, 'DEBUG', 'signal 11 (SIGSEGV)'))).toEqual([]);
    expect(
      crashes(line(5000, 'DEBUG', '*** *** ***'), line(5000, 'DEBUG', 'pid: 0, tid: 1, name: x  >>> com.z <<<'))[0],
    ).toMatchObject({ pid: 0, process: 'com.z', exception: null, stack: [] });
    // The first pid line counts, even pid 0.
    expect(
      crashes(
        line(5000, 'DEBUG', '*** *** ***'),
        line(5000, 'DEBUG', 'pid: 0, tid: 1, name: x  >>> com.z <<<'),
        line(5000, 'DEBUG', 'pid: 5, tid: 6, name: y  >>> com.y <<<'),
      )[0],
    ).toMatchObject({ pid: 0, process: 'com.z' });
  });

  it('reports come oldest first, whichever kind', () => {
    const kinds = crashes(
      line(5000, 'DEBUG', '*** *** ***', 5),
      line(5000, 'DEBUG', 'pid: 1, tid: 1, name: x  >>> com.n <<<', 5),
      line(77, 'AndroidRuntime', 'FATAL EXCEPTION: main', 9),
      line(78, 'AndroidRuntime', 'FATAL EXCEPTION: main', 1),
    ).map((r) => [r.kind, r.epochMs % 60_000]);
    expect(kinds).toEqual([
      ['crash', 1000],
      ['native_crash', 5000],
      ['crash', 9000],
    ]);
  });

  it('an ANR reason is cut to 300; an am_anr of another shape or tag is skipped', () => {
    const long = 'r'.repeat(301);
    const events = parseThreadtime(
      [
        line(541, 'am_anr', `[0,4500,com.a,-1,${long}]`),
        line(541, 'am_anr', '[0,4500,com.a,x,reason]'),
        line(541, 'am_anr', '[0,4600,com.b,0,trailing space] '),
        line(541, 'am_other', '[0,4500,com.a,1,reason]'),
      ].join('\n'),
    );
    const reports = parseAnrEvents(events);
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({ pid: 4500, process: 'com.a', reason: `${'r'.repeat(300)}…` });
    expect(reports[1]).toMatchObject({ pid: 4600, process: 'com.b', reason: 'trailing space' });
  });
});

describe('the log budget, to the byte', () => {
  it('keeps an item whose cost is exactly what is left, not one byte more', () => {
    const items = [{ m: 'old' }, { m: 'new' }];
    const cost = (item: object) => wireBytesOfJson(JSON.stringify(item)) + 2;
    const both = cost(items[0]!) + cost(items[1]!);
    expect(newestWithin(items, both)).toEqual({ kept: items, dropped: 0 });
    expect(newestWithin(items, both - 1)).toEqual({ kept: [items[1]], dropped: 1 });
    expect(newestWithin(items, cost(items[1]!) - 1)).toEqual({ kept: [], dropped: 2 });
  });

  it('the newest are kept even when an older one alone would fit after the cut', () => {
    const items = [{ m: 'a' }, { m: 'x'.repeat(50) }, { m: 'b' }];
    const small = wireBytesOfJson(JSON.stringify(items[0])) + 2;
    expect(newestWithin(items, small * 2)).toEqual({ kept: [items[2]], dropped: 2 });
  });

  it('a message of exactly the limit is kept whole; one more is cut with …; a pair at the cut goes whole', () => {
    const exact = 'm'.repeat(LOG_MESSAGE_CHARS_MAX);
    expect(cutMessage(exact)).toBe(exact);
    expect(cutMessage(`${exact}x`)).toBe(`${exact}…`);
    const pairAtEnd = `${'m'.repeat(LOG_MESSAGE_CHARS_MAX - 1)}\u{1F600}`;
    expect(cutMessage(`${pairAtEnd}x`)).toBe(`${'m'.repeat(LOG_MESSAGE_CHARS_MAX - 1)}…`);
    // The first and the last high surrogate (U+10000, U+10FFFF) both count as the start of a pair.
    for (const pair of ['\u{10000}', '\u{10FFFF}']) {
      expect(cutMessage(`${'m'.repeat(LOG_MESSAGE_CHARS_MAX - 1)}${pair}x`)).toBe(
        `${'m'.repeat(LOG_MESSAGE_CHARS_MAX - 1)}…`,
      );
    }
    const lowAtEnd = `${'m'.repeat(LOG_MESSAGE_CHARS_MAX - 2)}\u{1F600}`;
    expect(cutMessage(`${lowAtEnd}x`)).toBe(`${lowAtEnd}…`);
  });
});
