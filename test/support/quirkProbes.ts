/**
 * The probes every quirks test file uses on its stack (quirkStack.ts): a tool call to the harness
 * and a line on stderr about its answer, raw adb output as one string, the device log's last
 * position, a wait until no Appium session is left, and a raw UiAutomator2 session of the test's own.
 * The stack is read when a probe runs (it is started in beforeAll), hence the getter:
 *
 *   let stack: QuirkStack;
 *   const { call, report, rawText, lastSeq } = quirkProbes('quirks-lock', () => stack);
 */
import type { ToolAnswer } from '../e2e/support/harnessClient.js';
import { sleep } from './processes.js';
import type { QuirkTarget } from './quirkStack.js';
import { openRawSession, type RawDriver } from './rawSession.js';

export interface QuirkProbeOptions {
  /** How much of an ok answer's data report() prints (default none: just `ok`). */
  readonly okDataChars?: number;
}

export interface QuirkProbes {
  call(tool: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** One stderr line: `[label] name: ok|CODE: message (N ms)`. */
  report(name: string, answer: ToolAnswer): void;
  /** Raw adb on the device; stdout and stderr as one string. */
  rawText(args: readonly string[]): Promise<string>;
  /** The sequence number of the device log's last entry (0 when empty). */
  lastSeq(): number;
  /**
   * Until no UiAutomator2 server runs on the device and Appium holds no session (bounded by
   * `withinMs`): the session a harness kept after an action is gone, so a raw dump or session meets nobody.
   */
  untilNoSession(withinMs?: number, stepMs?: number): Promise<void>;
  /**
   * A raw UiAutomator2 session (the contract's capabilities), opened once the harness's kept
   * session has ended (a second client's session start would force-stop its server, as a polite
   * client would not), and deleted before the harness acts again.
   */
  withRawSession(work: (driver: RawDriver) => Promise<void>): Promise<void>;
}

export function quirkProbes(label: string, target: () => QuirkTarget, options: QuirkProbeOptions = {}): QuirkProbes {
  const okChars = options.okDataChars ?? 0;
  return {
    call: (tool, args = {}) => target().harness.call(tool, args),
    report: (name, answer) => {
      const e = answer.envelope;
      const ok = okChars > 0 ? JSON.stringify(e.data).slice(0, okChars) : 'ok';
      process.stderr.write(
        `[${label}] ${name}: ${e.ok ? ok : `${e.error?.code}: ${e.error?.message}`} (${answer.elapsedMs} ms)\n`,
      );
    },
    rawText: async (args) => {
      const r = await target().onDevice(args);
      return r.stdout.toString('utf8') + r.stderr;
    },
    lastSeq: () => target().device.log().at(-1)?.seq ?? 0,
    untilNoSession: async (withinMs = 10_000, stepMs = 100) => {
      const { device, appium } = target();
      const deadline = Date.now() + withinMs;
      while ((device.instrumentationRunning() || (await appium.sessionIds()).length > 0) && Date.now() < deadline)
        await sleep(stepMs);
    },
    withRawSession: async (work) => {
      const { device, appium, serial, adbPort } = target();
      const deadline = Date.now() + 10_000;
      while ((await appium.sessionIds()).length > 0 && Date.now() < deadline) await sleep(100);
      const driver = await openRawSession({ appiumPort: appium.port, serial, adbPort });
      try {
        await work(driver);
      } finally {
        await driver.deleteSession();
        const until = Date.now() + 5_000;
        while (device.instrumentationRunning() && Date.now() < until) await sleep(50);
      }
    },
  };
}
