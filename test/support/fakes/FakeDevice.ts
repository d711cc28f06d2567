import { HarnessError } from '../../../src/domain/errors.js';
import { readFileSync } from 'node:fs';
import type { DeviceGateway, InstallOutcome, LinkStart } from '../../../src/domain/ports.js';
import type { PackageName } from '../../../src/domain/validation.js';
import type { LinkUri } from '../../../src/domain/links/linkUri.js';
import type { ImeState, ScreenLock, SystemBars, Wakefulness, WindowState } from '../../../src/domain/tree/screen.js';
import { makePng } from './images.js';
import { settingsAppsDump } from './screens.js';

/**
 * An in-memory device: every call is logged by name, answers come from public fields a
 * test may change, and `failWith` / `hang` make any call fail or never answer.
 */
export class FakeDevice implements DeviceGateway {
  readonly calls: string[] = [];
  state = 'device';
  androidVersion = '14';
  model = 'sdk_gphone64_x86_64';
  packages = ['com.android.settings', 'com.example.app', 'com.android.chrome'];
  density = 420;
  foreground: string | null = 'com.android.settings';
  /** What dumpsys window says of the keyboard. */
  ime: ImeState = { visible: false, frame: null };
  /** What dumpsys window says of the status and navigation bars; unset: not reported. */
  systemBars: SystemBars | undefined = undefined;
  /** The focused activity dumpsys reports (part of a ref's identity); null: not reported. */
  activity: string | null = null;
  dump = settingsAppsDump();
  png = makePng(40, 80);
  launcher: Record<string, string> = { 'com.example.app': 'com.example.app/.MainActivity' };
  /** Called after startActivity / startApplicationSettings, to move the screen. */
  onStart: (component: string) => void = (component) => {
    this.foreground = component.split('/')[0] ?? null;
  };
  /**
   * Scripted answers of the next getWindowState calls, one each (the focus lagging
   * behind Back). The last one taken stays the foreground once the script runs out.
   */
  foregroundReads: (string | null)[] = [];
  /** What dumpsys window says of the lock screen; undefined: it says nothing (unlocked). */
  lock: ScreenLock | undefined = undefined;
  /** `dumpsys power`'s mWakefulness. */
  wakefulness: Wakefulness | null = 'Awake';
  failWith: Partial<Record<keyof DeviceGateway, HarnessError>> = {};
  hang: Set<keyof DeviceGateway> = new Set();

  private async answer<T>(name: keyof DeviceGateway, value: () => T): Promise<T> {
    this.calls.push(name);
    await Promise.resolve();
    if (this.hang.has(name)) return new Promise<T>(() => undefined);
    const failure = this.failWith[name];
    if (failure) throw failure;
    return value();
  }

  getState(): Promise<string> {
    return this.answer('getState', () => this.state);
  }
  getAndroidVersion(): Promise<string> {
    return this.answer('getAndroidVersion', () => this.androidVersion);
  }
  getModel(): Promise<string> {
    return this.answer('getModel', () => this.model);
  }
  listPackages(): Promise<string[]> {
    return this.answer('listPackages', () => [...this.packages]);
  }
  getDensity(): Promise<number> {
    return this.answer('getDensity', () => this.density);
  }
  getWindowState(): Promise<WindowState> {
    return this.answer('getWindowState', () => {
      if (this.foregroundReads.length > 0) this.foreground = this.foregroundReads.shift() ?? null;
      return this.windowState();
    });
  }
  private windowState(): WindowState {
    return {
      foregroundPackage: this.foreground,
      foregroundActivity: this.activity,
      ime: this.ime,
      displaySize: { width: 1080, height: 2400 },
      ...(this.lock ? { lock: this.lock } : {}),
      ...(this.systemBars ? { systemBars: this.systemBars } : {}),
    };
  }
  getWakefulness(): Promise<Wakefulness | null> {
    return this.answer('getWakefulness', () => this.wakefulness);
  }
  dumpUi(): Promise<string> {
    return this.answer('dumpUi', () => this.dump);
  }
  screencap(): Promise<Buffer> {
    return this.answer('screencap', () => this.png);
  }
  resolveLauncherActivity(pkg: PackageName): Promise<string | null> {
    return this.answer('resolveLauncherActivity', () => this.launcher[pkg] ?? null);
  }
  startActivity(component: string): Promise<void> {
    return this.answer('startActivity', () => this.onStart(component));
  }
  startApplicationSettings(): Promise<void> {
    return this.answer('startApplicationSettings', () => this.onStart('com.android.settings/.Settings'));
  }
  /** Links opened (app_open_link), and which package handles a scheme: absent means nothing resolves it. */
  readonly links: { uri: string; pkg: string | null }[] = [];
  linkHandlers: Record<string, string> = { https: 'com.android.chrome' };
  openLink(uri: LinkUri, pkg: PackageName | null): Promise<LinkStart> {
    return this.answer('openLink', (): LinkStart => {
      this.links.push({ uri, pkg });
      const handler = this.linkHandlers[uri.slice(0, uri.indexOf(':'))];
      if (handler === undefined || (pkg !== null && pkg !== handler)) return { kind: 'unresolved' };
      this.onStart(`${handler}/.LinkActivity`);
      return { kind: 'started', component: `${handler}/.LinkActivity` };
    });
  }
  /** Packages stopped / cleared (app_stop, app_clear_data). */
  readonly stopped: string[] = [];
  readonly cleared: string[] = [];
  forceStop(pkg: PackageName): Promise<void> {
    return this.answer('forceStop', () => {
      this.stopped.push(pkg);
      if (this.foreground === pkg) this.foreground = 'com.google.android.apps.nexuslauncher';
    });
  }
  clearData(pkg: PackageName): Promise<boolean> {
    return this.answer('clearData', () => {
      this.cleared.push(pkg);
      if (this.foreground === pkg) this.foreground = 'com.google.android.apps.nexuslauncher';
      return this.packages.includes(pkg);
    });
  }
  /** What the package manager answers app_install; the bytes adb was given, read at the call. */
  installOutput = 'Success';
  readonly installs: { hostPath: string; bytes: Buffer | null }[] = [];
  installApk(hostPath: string): Promise<InstallOutcome> {
    return this.answer('installApk', () => {
      let bytes: Buffer | null;
      try {
        bytes = readFileSync(hostPath);
      } catch {
        bytes = null;
      }
      this.installs.push({ hostPath, bytes });
      return this.installOutput.startsWith('Success')
        ? { ok: true as const }
        : { ok: false as const, output: this.installOutput };
    });
  }
  /** `ps -A -o PID,NAME` (app_logs). */
  processes: { pid: number; name: string }[] = [{ pid: 541, name: 'system_server' }];
  /** What logcat prints per pid (app_logs), the crash buffer and the am_anr events (app_crashes). */
  appLogs: Record<number, string> = {};
  crashLog = '';
  anrEvents = '';
  /** The (pid, lines) of every readAppLog call. */
  readonly logReads: { pid: number; lines: number }[] = [];
  listProcesses(): Promise<{ pid: number; name: string }[]> {
    return this.answer('listProcesses', () => [...this.processes]);
  }
  readAppLog(pid: number, lines: number): Promise<string> {
    return this.answer('readAppLog', () => {
      this.logReads.push({ pid, lines });
      return this.appLogs[pid] ?? '';
    });
  }
  readCrashLog(): Promise<string> {
    return this.answer('readCrashLog', () => this.crashLog);
  }
  readAnrEvents(): Promise<string> {
    return this.answer('readAnrEvents', () => this.anrEvents);
  }
}
