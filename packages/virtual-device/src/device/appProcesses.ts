/**
 * App processes follow the screen stack, and what they write goes to logcat. A package that comes
 * on screen without a process gets one (zygote forks it: ActivityManager logs `Start proc`, the
 * runtime its first lines, all with the new pid); one whose screens all left the stack ends.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { LogcatBuffer } from '../shell/context.js';
import type { SystemState } from './system.js';
import type { DeviceUi } from './ui.js';

/** A scenario `crash` action: the exception an app's main thread throws. */
export interface AppCrash {
  readonly exception: string;
  readonly message?: string;
  readonly frames: readonly string[];
}

export class AppProcesses {
  constructor(
    private readonly ui: DeviceUi,
    private readonly system: SystemState,
    private readonly logcat: LogcatBuffer,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
  ) {}

  /** Starts the process of every package on the stack that has none, and ends those that left it. */
  sync(): void {
    const inStack = this.ui.packagesInStack();
    for (const pkg of this.system.runningApps()) if (!inStack.includes(pkg)) this.system.endApp(pkg);
    for (const pkg of inStack) {
      if (this.system.isBaseProcess(pkg)) continue;
      const { pid, started } = this.system.startApp(pkg);
      if (!started) continue;
      const startProc = `Start proc ${pid}:${pkg}/u0a160 for next-top-activity {${this.componentOf(pkg)}}`;
      this.logcat.add('ActivityManager', startProc, 'I', 541, 'system', 573);
      this.logcat.add(pkg, 'Late-enabling -Xcheck:jni', 'I', pid);
      this.logcat.add(pkg, 'Using CollectorTypeCC GC.', 'I', pid);
      this.logcat.add(
        'CompatibilityChangeReporter',
        'Compat change id reported: 171979766; UID 10160; state: ENABLED',
        'D',
        pid,
      );
      this.logcat.add(
        'OpenGLRenderer',
        'Davey! duration=712ms; Flags=1, FrameTimelineVsyncId=0',
        'I',
        pid,
        'main',
        pid + 21,
      );
    }
  }

  /** `pkg/.Act` of the package's topmost screen in the stack. */
  private componentOf(pkg: string): string {
    const fg = this.ui.foreground();
    return fg.package === pkg ? this.ui.foregroundComponent() : pkg;
  }

  /** A scenario `log` action: the app writes a line with its own pid. */
  logged(pkg: string, priority: string, tag: string, message: string): void {
    const { pid } = this.system.startApp(pkg);
    this.logcat.add(tag, message, priority, pid);
  }

  /**
   * An uncaught exception on the app's main thread. RuntimeInit.logUncaught writes
   * `FATAL EXCEPTION: main` / `Process: <pkg>, PID: <pid>` and the stack to the crash buffer,
   * one entry per line (Log.printlns); ActivityManager notes `am_crash` in the events buffer and
   * the death in the system buffer; the process ends (the caller takes its screens off the stack).
   */
  crashed(pkg: string, crash: AppCrash, activity: string): void {
    const { pid } = this.system.startApp(pkg);
    const thrown = crash.message === undefined ? crash.exception : `${crash.exception}: ${crash.message}`;
    const lines = [
      'FATAL EXCEPTION: main',
      `Process: ${pkg}, PID: ${pid}`,
      thrown,
      ...crash.frames.map((f) => `\tat ${f}`),
    ];
    for (const line of lines) this.logcat.add('AndroidRuntime', line, 'E', pid, 'crash');
    const top = /^(.*)\.([^.(]+)\(([^:)]+):(\d+)\)$/.exec(crash.frames[0] ?? '');
    const amCrash = `[0,${pid},${pkg},952745476,${crash.exception},${crash.message ?? ''},${top?.[3] ?? 'Unknown Source'},${top?.[4] ?? 0},0]`;
    this.logcat.add('am_crash', amCrash, 'I', 541, 'events', 1722);
    const shortActivity = activity.startsWith(`${pkg}.`) ? activity.slice(pkg.length) : activity;
    this.logcat.add(
      'ActivityTaskManager',
      `  Force finishing activity ${pkg}/${shortActivity}`,
      'W',
      541,
      'system',
      1722,
    );
    this.logcat.add('ActivityManager', `Process ${pkg} (pid ${pid}) has died: fg  TOP `, 'I', 541, 'system', 602);
    this.system.endApp(pkg);
    this.log('fault', `app crash: ${pkg} (pid ${pid}) ${thrown}`);
  }
}
