/**
 * The UiAutomator2 server's instrumentation and Android's one-UiAutomation rule:
 * `am instrument` holds the UiAutomation connection for as long as it runs, and a
 * `uiautomator dump` cannot register while it does (nor the other way round).
 */
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from './clock.js';
import type { SystemState } from './system.js';

export const UIA2_SERVER_PACKAGE = 'io.appium.uiautomator2.server';
export const UIA2_TEST_PACKAGE = 'io.appium.uiautomator2.server.test';
export const UIA2_INSTRUMENTATION = `${UIA2_TEST_PACKAGE}/androidx.test.runner.AndroidJUnitRunner`;

export type InstrumentationEnd = 'session-deleted' | 'force-stop' | 'aborted' | 'crash' | 'replaced';
export type UiAutomationHolder = 'instrumentation' | 'dump' | null;

/** How Android words a second UiAutomation registration (note the missing space before "already"). */
export function uiAutomationAlreadyRegistered(hash: string): string {
  return `UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@${hash}already registered!`;
}

interface Running {
  readonly pid: number;
  serving: boolean;
  readonly finished: Promise<InstrumentationEnd>;
  finish(reason: InstrumentationEnd): void;
}

export interface InstrumentationIo {
  out(chunk: string): void;
  readonly signal: AbortSignal;
  /** `-w`: wait for the instrumentation to finish and print its result. */
  readonly wait: boolean;
}

export class Instrumentation {
  private running: Running | null = null;
  private holder: UiAutomationHolder = null;
  private readonly endListeners: ((reason: InstrumentationEnd) => void)[] = [];
  crashOnNextStart = false;

  constructor(
    private readonly system: SystemState,
    private readonly clock: DeviceClock,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
    private readonly startupDelayMs: number,
  ) {}

  uiAutomationHolder(): UiAutomationHolder {
    return this.holder;
  }

  /** Registers UiAutomation for a dump; false when the instrumentation holds it. */
  acquireForDump(): boolean {
    if (this.holder !== null) return false;
    this.holder = 'dump';
    return true;
  }

  releaseDump(): void {
    if (this.holder === 'dump') this.holder = null;
  }

  isRunning(): boolean {
    return this.running !== null;
  }

  /** True once the server inside the instrumentation listens on 6790. */
  isServing(): boolean {
    return this.running?.serving === true;
  }

  onEnd(listener: (reason: InstrumentationEnd) => void): void {
    this.endListeners.push(listener);
  }

  end(reason: InstrumentationEnd): boolean {
    if (!this.running) return false;
    this.running.finish(reason);
    return true;
  }

  /** `am instrument … io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner`. */
  async run(io: InstrumentationIo): Promise<number> {
    if (this.running) this.end('replaced');
    if (this.holder === 'dump') {
      const msg = uiAutomationAlreadyRegistered('8c7e2a1');
      io.out(
        `INSTRUMENTATION_RESULT: shortMsg=java.lang.IllegalStateException\nINSTRUMENTATION_RESULT: longMsg=java.lang.IllegalStateException: ${msg}\nINSTRUMENTATION_CODE: 0\n`,
      );
      this.log(
        'shell',
        'am instrument: UiAutomation is held by a uiautomator dump; the instrumentation failed to start',
      );
      return 0;
    }
    if (this.crashOnNextStart) {
      this.crashOnNextStart = false;
      await this.clock.sleep(200, io.signal);
      io.out('INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n');
      this.log('fault', 'am instrument: crashed on start (injected)');
      return 0;
    }
    let finish: (reason: InstrumentationEnd) => void = () => undefined;
    const finished = new Promise<InstrumentationEnd>((resolve) => {
      finish = resolve;
    });
    const process = this.system.spawnProcess(UIA2_SERVER_PACKAGE, 'u0_a191');
    const running: Running = { pid: process.pid, serving: false, finished, finish: (r) => finish(r) };
    this.running = running;
    this.holder = 'instrumentation';
    const startedAt = this.clock.nowMs();
    this.log('shell', `am instrument: ${UIA2_SERVER_PACKAGE} started (pid ${process.pid}); UiAutomation registered`);

    const onAbort = (): void => running.finish('aborted');
    io.signal.addEventListener('abort', onAbort, { once: true });
    const startup = new AbortController();
    void finished.then(() => startup.abort());
    void this.clock.sleep(this.startupDelayMs, startup.signal).then(() => {
      if (this.running === running && !startup.signal.aborted) {
        running.serving = true;
        this.log('tcp', `UiAutomator2 server listening on 6790 (after ${this.startupDelayMs} ms)`);
      }
    });

    const lifecycle = finished.then((reason) => {
      io.signal.removeEventListener('abort', onAbort);
      if (this.running === running) this.running = null;
      running.serving = false;
      this.system.killProcess(process.pid);
      if (this.holder === 'instrumentation') this.holder = null;
      this.log('shell', `am instrument: ${UIA2_SERVER_PACKAGE} ended (${reason}); UiAutomation released`);
      for (const l of this.endListeners) l(reason);
      return reason;
    });
    if (!io.wait) return 0;
    const reason = await lifecycle;
    const seconds = ((this.clock.nowMs() - startedAt) / 1000).toFixed(3);
    if (reason === 'crash') io.out('INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n');
    else if (reason !== 'aborted')
      io.out(`io.appium.uiautomator2.server.test.AppiumUiAutomator2Server:.\n\nTime: ${seconds}\n\nOK (1 test)\n`);
    return 0;
  }
}
