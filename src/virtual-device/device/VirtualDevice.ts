/**
 * The virtual Android device: what the ADB transport calls (`DeviceServices`) and what
 * tests drive in-process (screens, the ordered log, faults). See docs/virtual-device.md.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { DeviceConnectionState, DeviceLogEntry, DeviceLogKind, DeviceServices, ShellIo, ShellOrigin, VirtualFileStat } from '../contracts.js';
import { defaultScenario, platformPackages, type HelperVersions } from '../scenario/defaultScenario.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { PackageSpec, ScenarioSpec } from '../scenario/model.js';
import { normalizeScenario } from '../scenario/normalize.js';
import { importHierarchyXml } from '../scenario/xmlImport.js';
import { LogcatBuffer, type DumpOutcome, type ShellDevice } from '../shell/context.js';
import { registerBasicCommands } from '../shell/commands/basic.js';
import { liveWindowFacts, registerDumpsys } from '../shell/commands/dumpsys.js';
import { registerPackageCommands } from '../shell/commands/packages.js';
import { registerScreenCommands } from '../shell/commands/screen.js';
import { ShellInterpreter, type CommandHandler } from '../shell/interpreter.js';
import { serverBounds } from '../uia2/bounds.js';
import { Uia2Server } from '../uia2/server.js';
import { realClock, type DeviceClock } from './clock.js';
import { describeFault, faultApplies, screenActivity, type Fault, type ScreenActivity } from './faults.js';
import { detectHelperVersions } from './helperVersions.js';
import { Instrumentation, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE, uiAutomationAlreadyRegistered } from './instrumentation.js';
import { installStreamedApk } from './packageInstaller.js';
import { renderScreenshot } from './screenshot.js';
import { toDumpXml, toPageSource } from './serialize.js';
import { DEFAULT_PROPS, SystemState } from './system.js';
import { boundedLag, BUILT_IN_DISPLAY, DeviceTraits, releaseForSdk, rotatedSize, type DeviceTraitOptions, type DumpConflict, type PasswordText, type Rotation, type Sleep, type VirtualDisplay } from './traits.js';
import { withKeyguard } from '../scenario/keyguard.js';
import { withNotificationShade } from '../scenario/notificationShade.js';
import { DeviceUi, type ClickRecord, type ForegroundInfo } from './ui.js';
import { flatten, type UiElement } from './uiTree.js';
import { LANDSCAPE, LAST_ANR_LIFETIME_MS, type BackFocusLag, type FocusInTransit, type LastAnr } from './windowState.js';

/** AOSP `DumpCommand`: `uiAutomation.waitForIdle(1000, 1000 * 10)`, the global timeout. */
export const DUMP_IDLE_TIMEOUT_MS = 10_000;

export interface VirtualDeviceOptions extends DeviceTraitOptions {
  readonly clock?: DeviceClock;
  /** How long `am instrument` takes before port 6790 answers (the real server needs about a second). */
  readonly instrumentationStartupMs?: number;
  /** How long a `uiautomator dump` holds UiAutomation. */
  readonly dumpDurationMs?: number;
  readonly helperVersions?: HelperVersions;
  /** Behave like a device without shell_v2 (CRLF through a PTY). */
  readonly legacyPty?: boolean;
  readonly connectionState?: DeviceConnectionState;
  /** Issue 8: `get-state` says `device` but sys.boot_completed stays unset for this long. */
  readonly bootDelayMs?: number;
  /** Called for every log entry (the CLI prints them). */
  readonly onLog?: (entry: DeviceLogEntry) => void;
  /**
   * ro.serialno and ro.boot.serialno, the hardware serial a real device reports (and adb prints for
   * USB devices). Default: `VIRTUAL` and 8 hex digits, different for every device made.
   */
  readonly serialNumber?: string;
  /**
   * Answer as an emulator of this AVD (issue 15): ro.boot.qemu and ro.kernel.qemu 1,
   * ro.boot.qemu.avd_name (current images; older ones had ro.kernel.qemu.avd_name) the name, and
   * ro.serialno the emulator's build string (EMULATOR35X6X3X0), which is the same for every
   * emulator of one build, as on a real emulator.
   */
  readonly avdName?: string;
}

/**
 * The panel a static screen's dump was taken on, or null to keep the phone's: only a dump that is
 * rotated or does not fit the phone's 1080x2400 frame says something the phone cannot show. A
 * phone-sized dump keeps the phone's display (its frame often stops above the navigation bar).
 */
function staticDisplay(frame: { width: number; height: number } | null, rotation: Rotation): { panel: VirtualDisplay; rotation: Rotation } | null {
  if (frame === null || frame.width < 100 || frame.height < 100) return null;
  if (rotation === 0 && frame.width <= BUILT_IN_DISPLAY.width && frame.height <= BUILT_IN_DISPLAY.height) return null;
  const natural = rotatedSize(frame, rotation);
  return { panel: { ...BUILT_IN_DISPLAY, width: natural.width, height: natural.height }, rotation };
}

/** The serial number every emulator of one build shares (androidboot.serialno=EMULATOR<version>). */
export const EMULATOR_BUILD_SERIALNO = 'EMULATOR35X6X3X0';

export interface StaticScreenOptions extends VirtualDeviceOptions {
  /** Package shown by dumpsys (default: the dump's first package). */
  readonly package?: string;
  /** Activity shown by dumpsys (default `.StaticActivity`). */
  readonly activity?: string;
}

/** What `recordAnr` freezes besides the current state. */
export interface AnrOptions {
  /** The `Reason:` line (default: an input dispatch timeout of the app in front). */
  readonly reason?: string;
  /** The ANR happened with the display turned to landscape (its frozen copy says `cur=2400x1080`). */
  readonly landscape?: boolean;
}

export interface CurrentScreen {
  readonly package: string;
  readonly activity: string;
  readonly screenId: string;
}

export class VirtualDevice implements DeviceServices {
  private readonly clock: DeviceClock;
  private readonly startedAt: number;
  private readonly entries: DeviceLogEntry[] = [];
  private seq = 0;
  private readonly activeFaults: Fault[] = [];
  private blipUntil = 0;
  private screenshotCache: { key: string; png: Buffer } | null = null;
  private readonly shell: ShellInterpreter;
  private readonly commands = new Map<string, CommandHandler>();
  private readonly shellEnv = new Map<string, string>();
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly instrumentation: Instrumentation;
  /** Staging sessions of streamed installs (`/data/app/vmdl<n>.tmp`). */
  private installSessions = 0;
  /** The scenario's packages, remembered across uninstalls: a reinstall brings their behaviour back. */
  private readonly scenarioPackages: ReadonlyMap<string, PackageSpec>;
  readonly logcat: LogcatBuffer;
  private readonly uia2: Uia2Server;
  private legacy: boolean;
  private state: DeviceConnectionState;
  /** Issue 8 traits (displays, launch delay); the API level and density live in `system`. */
  readonly traits: DeviceTraits;
  private pendingLaunch: { pkg: string; previousXml: string; until: number } | null = null;
  private booting: AbortController | null = null;
  /** Issue 12: the window focus catching up with the last Back. */
  private backLag: { from: ForegroundInfo; generation: number; staleUntil: number; noFocusUntil: number } | null = null;
  private anr: LastAnr | null = null;
  /** Device clock time until which io.appium.settings's trampoline holds the focus (issue 12). */
  private helperFocusUntil: number | null = null;
  private readonly shellDevice: ShellDevice;

  constructor(scenario: ScenarioSpec, private readonly options: VirtualDeviceOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.startedAt = this.clock.nowMs();
    this.legacy = options.legacyPty ?? false;
    this.state = options.connectionState ?? 'device';
    this.traits = new DeviceTraits(options);
    const log = (kind: DeviceLogKind, detail: string): void => this.log(kind, detail);
    this.logcat = new LogcatBuffer(this.clock);
    this.system = new SystemState(scenario.packages, () => Math.floor(this.clock.nowMs() / 1000));
    this.scenarioPackages = new Map(scenario.packages.map((p) => [p.name, p]));
    this.identify(options);
    this.ui = new DeviceUi(
      normalizeScenario(withNotificationShade(withKeyguard(scenario))),
      log,
      () => this.system.density(),
      {
        backNavigated: (from) => this.backNavigated(from),
        appLogged: (pkg, action) => this.appLogged(pkg, action.priority, action.tag, action.message),
        appCrashed: (pkg, action, activity) => this.appCrashed(pkg, action, activity),
      },
      () => ({ passwordText: this.traits.passwordText }),
      () => this.system.longPressTimeoutMs(),
      () => (this.traits.locked ? 'keyguard' : this.traits.asleep !== false ? 'off' : null),
      () => this.traits.activeDisplay(),
    );
    if (options.rotation !== undefined) this.ui.startAt(options.rotation);
    if (options.sdk !== undefined) this.setSdk(options.sdk);
    if (options.densityOverride !== undefined) this.system.densityOverride = options.densityOverride;
    this.instrumentation = new Instrumentation(this.system, this.clock, log, options.instrumentationStartupMs ?? 800);
    this.uia2 = new Uia2Server({
      ui: this.ui,
      system: this.system,
      instrumentation: this.instrumentation,
      clock: this.clock,
      log,
      screenshotPng: () => this.screenshotPng(),
      display: () => this.pageSourceDisplay(),
      requestFault: (subject) => this.faultFor('uia2', subject),
      screenActivity: () => this.screenActivity(),
    });
    const shellDevice: ShellDevice = (this.shellDevice = {
      ui: this.ui,
      system: this.system,
      instrumentation: this.instrumentation,
      clock: this.clock,
      traits: this.traits,
      beginLaunch: (pkg) => this.beginLaunch(pkg),
      launchInProgress: () => this.launchInProgress(),
      focusInTransit: () => this.focusInTransit(),
      settingsHelperInFront: () => this.settingsHelperInFront(),
      settingsHelperStarted: () => this.settingsHelperStarted(),
      lastAnr: () => this.lastAnr(),
      logcat: this.logcat,
      log,
      screenshotPng: () => this.screenshotPng(),
      dumpHierarchy: (signal) => this.dumpHierarchy(signal),
      runNested: (line, out, err, signal) => this.shell.run(line, out, err, signal, new Map(this.shellEnv)),
    });
    registerBasicCommands(this.commands, shellDevice);
    registerPackageCommands(this.commands, shellDevice);
    registerDumpsys(this.commands, shellDevice);
    registerScreenCommands(this.commands, shellDevice);
    this.shell = new ShellInterpreter({
      command: (name) => (name.startsWith('__') ? undefined : this.commands.get(name)),
      readFile: (p) => this.system.readFile(p),
      writeFile: (p, data, append) => this.system.writeFile(p, data, { append }),
      unknownCommand: (name, line) => this.log('unknown-command', `${name} (in: ${line})`),
    });
    this.logcat.add('ActivityManager', 'System now ready', 'I', 541);
    this.syncAppProcesses();
    if (options.bootDelayMs !== undefined && options.bootDelayMs > 0) this.setBooting(options.bootDelayMs);
  }

  // --- factories -------------------------------------------------------------

  /** Launcher, Settings (every CONTRACT §10 row), a Flutter-style notes app and placeholder apps. */
  static withDefaultScenario(options: VirtualDeviceOptions = {}): VirtualDevice {
    return new VirtualDevice(defaultScenario(options.helperVersions ?? detectHelperVersions()), options);
  }

  /** A scenario file (JSON, see docs/virtual-device.md); Appium's helper packages are added when it omits them. */
  static fromScenarioFile(file: string, options: VirtualDeviceOptions = {}): VirtualDevice {
    const versions = options.helperVersions ?? detectHelperVersions();
    const scenario = loadScenarioFile(file);
    return new VirtualDevice(withPlatformPackages(scenario, versions), options);
  }

  /**
   * Any real uiautomator dump or Appium page source as one static screen: every node can be found
   * and clicked, and clicks are logged. A dump of a rotated or larger screen (a landscape tablet,
   * a TV) brings its display: the panel the dump's frame and rotation stand for, so that
   * `screencap`, `wm size` and `dumpsys window` describe the screen the dump was taken on.
   */
  static withStaticScreen(dumpXml: string, options: StaticScreenOptions = {}): VirtualDevice {
    const imported = importHierarchyXml(dumpXml);
    const display = options.displays === undefined && options.rotation === undefined ? staticDisplay(imported.frame, imported.rotation) : null;
    if (display) options = { ...options, displays: [display.panel], rotation: display.rotation };
    const pkg = options.package ?? imported.package;
    const scenario: ScenarioSpec = {
      name: 'static-screen',
      home: 'static',
      packages: [{ name: pkg, launcher: { activity: options.activity ?? '.StaticActivity', screen: 'static' } }],
      screens: [{ id: 'static', package: pkg, activity: options.activity ?? '.StaticActivity', root: imported.root, static: true, onBack: [] }],
    };
    return new VirtualDevice(withPlatformPackages(scenario, options.helperVersions ?? detectHelperVersions()), options);
  }

  /** Reads a dump file for `withStaticScreen`. */
  static fromDumpFile(file: string, options: StaticScreenOptions = {}): VirtualDevice {
    return VirtualDevice.withStaticScreen(readFileSync(path.resolve(file), 'utf8'), options);
  }

  // --- DeviceServices -----------------------------------------------------------

  bannerProperties(): { name: string; model: string; device: string } {
    const p = this.system.props;
    return { name: p.get('ro.product.name') ?? '', model: p.get('ro.product.model') ?? '', device: p.get('ro.product.device') ?? '' };
  }

  isOnline(): boolean {
    if (this.activeFaults.some((f) => f.kind === 'offline')) return false;
    return this.clock.nowMs() >= this.blipUntil;
  }

  legacyPty(): boolean {
    return this.legacy;
  }

  connectionState(): DeviceConnectionState {
    return this.state;
  }

  async runShell(commandLine: string, io: ShellIo, origin: ShellOrigin): Promise<number> {
    this.log('shell', `${origin}: ${commandLine}`);
    const fault = this.faultFor('shell', commandLine);
    if (fault === 'hang') {
      this.log('fault', `shell hung (injected): ${commandLine}`);
      await new Promise<void>((resolve) => io.aborted.addEventListener('abort', () => resolve(), { once: true }));
      return 130;
    }
    if (fault > 0) await this.clock.sleep(fault, io.aborted);
    const code = await this.shell.run(commandLine, (c) => io.stdout(c), (c) => io.stderr(c), io.aborted, this.shellEnv);
    this.shellEnv.delete('?');
    return code;
  }

  openTcp(port: number): Duplex | null {
    return port === 6790 ? this.uia2.open() : null;
  }

  statFile(p: string): VirtualFileStat | null {
    return this.system.stat(p);
  }

  readFile(p: string): Buffer | null {
    return this.system.readFile(p);
  }

  writeFile(p: string, bytes: Buffer, mode: number): void {
    const problem = this.system.writeFile(p, bytes, { mode: mode & 0o7777 });
    if (problem) this.log('sync', `write ${p} failed: ${problem}`);
  }

  async installPackage(args: readonly string[], apk: Buffer): Promise<string> {
    this.log('abb', `install ${args.join(' ')} (${apk.length} bytes)`);
    // Judged as PackageManagerService would (packageInstaller.ts): a text file is not an APK.
    const answer = await installStreamedApk(args, apk, {
      installed: this.system.installed,
      known: this.scenarioPackages,
      addScreen: (spec) => this.ui.addScreen(spec),
      stopPackage: (pkg) => {
        if (pkg === UIA2_SERVER_PACKAGE || pkg === UIA2_TEST_PACKAGE) this.instrumentation.end('force-stop');
        if (pkg === 'io.appium.settings') this.system.settingsHelperForeground = false;
        this.system.killProcessesNamed(pkg);
        this.ui.removePackage(pkg);
      },
    }, 1_000_000_000 + ++this.installSessions);
    this.log('abb', `install answered ${answer.trim()}`);
    return answer;
  }

  runAbb(args: readonly string[]): string {
    const [service, verb, ...rest] = args;
    if (service === 'package' && verb === 'uninstall') {
      const pkg = rest.filter((a) => !a.startsWith('-')).pop() ?? '';
      return this.system.installed.delete(pkg) ? 'Success\n' : 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n';
    }
    if (service === 'package' && verb === 'install') return 'Success\n';
    return `Unknown abb command: ${args.join(' ')}\n`;
  }

  /** With no arguments: the ordered device log (control API). With arguments: appends to it (DeviceServices). */
  log(): readonly DeviceLogEntry[];
  log(kind: DeviceLogKind, detail: string): void;
  log(kind?: DeviceLogKind, detail?: string): readonly DeviceLogEntry[] | undefined {
    if (kind === undefined) return this.entries;
    const entry: DeviceLogEntry = { seq: ++this.seq, atMs: this.clock.nowMs() - this.startedAt, kind, detail: detail ?? '' };
    this.entries.push(entry);
    if (this.entries.length > 50_000) this.entries.splice(0, 10_000);
    if (kind === 'screen') {
      this.logcat.add('WindowManager', entry.detail, 'I', 541);
      this.syncAppProcesses();
    }
    this.options.onLog?.(entry);
    return undefined;
  }

  // --- control API for tests -------------------------------------------------------

  /** The ordered device log: every shell command, UIA2 request, click, input and screen change. */
  logEntries(): readonly DeviceLogEntry[] {
    return this.entries;
  }

  clearLog(): void {
    this.entries.length = 0;
    this.ui.clearClicks();
  }

  /** Every tap the device received, with the named element's and the receiving node's bounds. */
  clicks(): readonly ClickRecord[] {
    return this.ui.clicks();
  }

  currentScreen(): CurrentScreen {
    const fg: ForegroundInfo = this.ui.foreground();
    return { package: fg.package, activity: fg.activity, screenId: fg.screenId };
  }

  /** Shows a screen of the scenario (on top of the launcher), its state reset. */
  setScreen(screenId: string, params: Readonly<Record<string, string>> = {}): void {
    this.pendingLaunch = null;
    this.backLag = null;
    this.ui.setScreen(screenId, params);
  }

  /** The rendered nodes of the current screen, in document order. */
  nodes(): readonly UiElement[] {
    return flatten(this.ui.tree());
  }

  /** What `uiautomator dump` would print now (faults ignored). */
  dumpXml(): string {
    return toDumpXml(this.ui.tree(), this.ui.displayRotation());
  }

  /** What UIA2 `GET /source` would answer now. */
  pageSource(): string {
    return toPageSource(this.ui.tree(), this.pageSourceDisplay(), serverBounds);
  }

  imeVisible(): boolean {
    return this.ui.imeVisible();
  }

  instrumentationRunning(): boolean {
    return this.instrumentation.isRunning();
  }

  uia2SessionCount(): number {
    return this.uia2.activeSessionCount();
  }

  injectFault(fault: Fault): void {
    this.log('fault', `inject ${describeFault(fault)}`);
    switch (fault.kind) {
      case 'drop-connection':
        // The transport polls isOnline(); a short blip makes it drop every connection once.
        this.blipUntil = this.clock.nowMs() + 300;
        return;
      case 'instrumentation-crash':
        if ((fault.when ?? 'now') === 'now') this.instrumentation.end('crash');
        else this.instrumentation.crashOnNextStart = true;
        return;
      default:
        this.activeFaults.push(fault);
    }
  }

  clearFaults(): void {
    this.activeFaults.length = 0;
    this.blipUntil = 0;
    this.instrumentation.crashOnNextStart = false;
    this.log('fault', 'cleared');
  }

  faults(): readonly Fault[] {
    return this.activeFaults;
  }

  setLegacyPty(on: boolean): void {
    this.legacy = on;
  }

  setConnectionState(state: DeviceConnectionState): void {
    this.state = state;
  }

  // --- issue 8 traits (docs/device-quirks.md) -------------------------------------

  /** Turns the display (Surface.ROTATION_*): captures, `dumpsys window` and the page source follow. */
  setRotation(rotation: Rotation): void {
    this.ui.setRotation(rotation, 'trait rotation');
  }

  /** Physical displays, first = what `screencap` without `-d` captures. See FOLDABLE_DISPLAYS. */
  setDisplays(displays: readonly VirtualDisplay[]): void {
    if (displays.length === 0) throw new Error('A device has at least one display');
    this.traits.displays = displays;
    // The frame every read is measured in follows the active panel.
    this.ui.version++;
    this.log('fault', `trait displays: ${displays.map((d) => `${d.physicalId} ${d.state}`).join(', ')}`);
  }

  /** A cold launch shows the app's window only `ms` after `am start -W` returns (the launcher stays in the dump). */
  setLaunchDelay(ms: number): void {
    this.traits.launchDelayMs = Math.max(0, ms);
    this.pendingLaunch = null;
    this.log('fault', `trait launch delay: ${ms} ms`);
  }

  /**
   * Issue 12: `plain` makes password fields report what was typed (a custom view that exposes it
   * to accessibility); `bullets`, the default, is what a stock TextView reports.
   */
  setPasswordText(mode: PasswordText): void {
    this.traits.passwordText = mode;
    this.ui.version++;
    this.log('fault', `trait password text: ${mode}`);
  }

  /**
   * Issue 12 (suspected): `killed` makes a dump that meets a running instrumentation die with exit
   * 137 and no output instead of the `already registered` text; `refused`, the default, is AOSP's answer.
   */
  setDumpConflict(mode: DumpConflict): void {
    this.traits.dumpConflict = mode;
    this.log('fault', `trait dump conflict: ${mode}`);
  }

  /** Whether the screen idles and its root can be read now (the idle-state and ui-busy faults). */
  screenActivity(): ScreenActivity {
    return screenActivity(this.activeFaults);
  }

  /**
   * Issue 12: the keyguard (a PIN lock screen) is up, or gone. While it is up, System UI's window
   * has the focus, dumps and screenshots show the lock screen, and taps, swipes and keys reach
   * nothing behind it; `am start` still starts the activity, behind the keyguard.
   */
  setLocked(on: boolean): void {
    this.traits.locked = on;
    this.ui.version++;
    this.log('fault', `trait locked: ${on}`);
  }

  /** Issue 12: the screen is off (`asleep`, or `dozing` on an always-on display), or on (false). Input is dropped while it is off. */
  setAsleep(sleep: Sleep): void {
    this.traits.asleep = sleep;
    this.ui.version++;
    this.log('fault', `trait asleep: ${sleep}`);
  }

  /**
   * Issue 12: the first start of io.appium.settings's trampoline activity (while its service is
   * not running: the first Appium session after boot) holds the window focus for `ms` and closes
   * an open keyboard. 0: it finishes at once (the default).
   */
  setSettingsHelperFocus(ms: number): void {
    this.traits.settingsHelperFocusMs = Math.min(10_000, Math.max(0, ms));
    this.log('fault', `trait settings helper focus: ${this.traits.settingsHelperFocusMs} ms`);
  }

  /** As after a reboot: io.appium.settings's service is not running, so the next session starts its activity again. */
  stopSettingsHelper(): void {
    this.system.settingsHelperForeground = false;
  }

  /** Who the device says it is (issue 15): a hardware serial of its own, or an emulator's AVD name. */
  private identify(options: VirtualDeviceOptions): void {
    const props = this.system.props;
    if (options.avdName !== undefined) {
      props.set('ro.boot.qemu', '1');
      props.set('ro.kernel.qemu', '1');
      props.set('ro.boot.qemu.avd_name', options.avdName);
      props.set('ro.serialno', EMULATOR_BUILD_SERIALNO);
      props.set('ro.boot.serialno', EMULATOR_BUILD_SERIALNO);
      return;
    }
    const serial = options.serialNumber ?? `VIRTUAL${randomBytes(4).toString('hex').toUpperCase()}`;
    props.set('ro.serialno', serial);
    props.set('ro.boot.serialno', serial);
  }

  /** API level: ro.build.version.sdk and .release, and the `dumpsys window` layout of that version. */
  setSdk(sdk: number): void {
    this.system.props.set('ro.build.version.sdk', String(sdk));
    this.system.props.set('ro.build.version.release', releaseForSdk(sdk));
    this.system.props.set('ro.build.version.release_or_codename', releaseForSdk(sdk));
  }

  /** `wm density N` (null: `wm density reset`). */
  setDensityOverride(density: number | null): void {
    this.system.densityOverride = density;
    this.ui.version++;
  }

  /**
   * The device answers adb (`get-state` is `device`) but has not finished booting:
   * sys.boot_completed is unset and the boot animation runs for `ms`, then boot completes.
   */
  setBooting(ms: number): void {
    this.booting?.abort();
    const props = this.system.props;
    props.delete('sys.boot_completed');
    props.delete('dev.bootcomplete');
    props.set('init.svc.bootanim', 'running');
    this.log('fault', `trait booting for ${ms} ms`);
    const booting = new AbortController();
    this.booting = booting;
    this.clock.sleep(ms, booting.signal).then(
      () => {
        if (this.booting === booting) this.finishBoot();
      },
      () => undefined,
    );
  }

  /**
   * Issue 12: how long the window focus lags behind a Back that changes the screen (the old
   * window keeps focus for `staleMs`, then none has it for `noFocusMs`). `{staleMs: 0, noFocusMs: 0}`
   * makes Back synchronous. Default DEFAULT_BACK_FOCUS_LAG.
   */
  setBackFocusLag(lag: BackFocusLag): void {
    this.traits.backFocusLag = boundedLag(lag);
    this.backLag = null;
    this.log('fault', `trait back focus lag: stale ${this.traits.backFocusLag.staleMs} ms, no focus ${this.traits.backFocusLag.noFocusMs} ms`);
  }

  /**
   * Issue 16: app processes follow the screen stack. A package that comes on screen without a
   * process gets one (zygote forks it: ActivityManager logs `Start proc`, the runtime its first
   * lines, all with the new pid); one whose screens all left the stack ends.
   */
  private syncAppProcesses(): void {
    const inStack = this.ui.packagesInStack();
    for (const pkg of this.system.runningApps()) if (!inStack.includes(pkg)) this.system.endApp(pkg);
    for (const pkg of inStack) {
      if (this.system.isBaseProcess(pkg)) continue;
      const { pid, started } = this.system.startApp(pkg);
      if (!started) continue;
      this.logcat.add('ActivityManager', `Start proc ${pid}:${pkg}/u0a160 for next-top-activity {${this.componentOf(pkg)}}`, 'I', 541, 'system', 573);
      this.logcat.add(pkg, 'Late-enabling -Xcheck:jni', 'I', pid);
      this.logcat.add(pkg, 'Using CollectorTypeCC GC.', 'I', pid);
      this.logcat.add('CompatibilityChangeReporter', 'Compat change id reported: 171979766; UID 10160; state: ENABLED', 'D', pid);
      this.logcat.add('OpenGLRenderer', 'Davey! duration=712ms; Flags=1, FrameTimelineVsyncId=0', 'I', pid, 'main', pid + 21);
    }
  }

  /** `pkg/.Act` of the package's topmost screen in the stack. */
  private componentOf(pkg: string): string {
    const fg = this.ui.foreground();
    return fg.package === pkg ? this.ui.foregroundComponent() : pkg;
  }

  private appLogged(pkg: string, priority: string, tag: string, message: string): void {
    const { pid } = this.system.startApp(pkg);
    this.logcat.add(tag, message, priority, pid);
  }

  /**
   * Issue 16: an uncaught exception on the app's main thread. RuntimeInit.logUncaught writes
   * `FATAL EXCEPTION: main` / `Process: <pkg>, PID: <pid>` and the stack to the crash buffer,
   * one entry per line (Log.printlns); ActivityManager notes `am_crash` in the events buffer and
   * the death in the system buffer; the process ends (the caller takes its screens off the stack).
   */
  private appCrashed(pkg: string, action: { readonly exception: string; readonly message?: string; readonly frames: readonly string[] }, activity: string): void {
    const { pid } = this.system.startApp(pkg);
    const thrown = action.message === undefined ? action.exception : `${action.exception}: ${action.message}`;
    const lines = ['FATAL EXCEPTION: main', `Process: ${pkg}, PID: ${pid}`, thrown, ...action.frames.map((f) => `\tat ${f}`)];
    for (const line of lines) this.logcat.add('AndroidRuntime', line, 'E', pid, 'crash');
    const top = /^(.*)\.([^.(]+)\(([^:)]+):(\d+)\)$/.exec(action.frames[0] ?? '');
    this.logcat.add('am_crash', `[0,${pid},${pkg},952745476,${action.exception},${action.message ?? ''},${top?.[3] ?? 'Unknown Source'},${top?.[4] ?? 0},0]`, 'I', 541, 'events', 1722);
    this.logcat.add('ActivityTaskManager', `  Force finishing activity ${pkg}/${activity.startsWith(`${pkg}.`) ? activity.slice(pkg.length) : activity}`, 'W', 541, 'system', 1722);
    this.logcat.add('ActivityManager', `Process ${pkg} (pid ${pid}) has died: fg  TOP `, 'I', 541, 'system', 602);
    this.system.endApp(pkg);
    this.log('fault', `app crash: ${pkg} (pid ${pid}) ${thrown}`);
  }

  /**
   * Issue 12: an ANR happens now. The window manager saves its state of this moment
   * (`saveANRStateLocked`), and every full `dumpsys window` prints that frozen copy first, in a
   * `WINDOW MANAGER LAST ANR` section, until `clearAnr()`, `resetTraits()` or two hours of device time.
   */
  recordAnr(options: AnrOptions = {}): void {
    const live = liveWindowFacts(this.shellDevice);
    const facts = options.landscape ? { ...live, display: LANDSCAPE } : live;
    const application = facts.focusedApp;
    const reason =
      options.reason ??
      `Input dispatching timed out (8d0a2f1 ${application.package}/${application.activity} (server) is not responding. Waited 5001ms for KeyEvent)`;
    this.anr = { atMs: this.clock.nowMs(), application, reason, facts };
    // ProcessErrorStateRecord.appNotResponding: the am_anr event (EventLogTags 30008) and `ANR in` in the system log.
    const pid = this.system.appPid(application.package) ?? 0;
    this.logcat.add('am_anr', `[0,${pid},${application.package},952745540,${reason}]`, 'I', 541, 'events', 1790);
    this.logcat.add('ActivityManager', `ANR in ${application.package} (${application.package}/${application.activity})\nPID: ${pid}\nReason: ${reason}`, 'E', 541, 'system', 1790);
    this.log('fault', `ANR recorded: ${application.package} (${reason})`);
  }

  clearAnr(): void {
    this.anr = null;
  }

  /** The last ANR the window manager still remembers. */
  lastAnr(): LastAnr | null {
    if (this.anr && this.clock.nowMs() - this.anr.atMs >= LAST_ANR_LIFETIME_MS) this.anr = null;
    return this.anr;
  }

  /** Back to a booted single-display API 34 phone with shell_v2, no launch delay, no density override, no ANR, the default Back lag, bullets in password fields, refused dumps beside an instrumentation. */
  resetTraits(): void {
    // setDensityOverride below bumps the UI version, so the password text is rendered afresh too.
    this.traits.reset();
    this.ui.setRotation(0, 'reset traits');
    this.pendingLaunch = null;
    this.backLag = null;
    this.anr = null;
    this.helperFocusUntil = null;
    this.legacy = this.options.legacyPty ?? false;
    this.state = this.options.connectionState ?? 'device';
    this.setDensityOverride(null);
    for (const key of ['ro.build.version.sdk', 'ro.build.version.release', 'ro.build.version.release_or_codename']) {
      this.system.props.set(key, DEFAULT_PROPS[key] as string);
    }
    if (this.booting) this.finishBoot();
  }

  private finishBoot(): void {
    this.booting?.abort();
    this.booting = null;
    this.system.props.set('sys.boot_completed', '1');
    this.system.props.set('dev.bootcomplete', '1');
    this.system.props.set('init.svc.bootanim', 'stopped');
    this.log('fault', 'boot completed');
  }

  private beginLaunch(pkg: string): void {
    if (this.traits.launchDelayMs <= 0) return;
    const previousXml = this.launchInProgress()?.previousXml ?? toDumpXml(this.ui.tree(), this.ui.displayRotation());
    this.pendingLaunch = { pkg, previousXml, until: this.clock.nowMs() + this.traits.launchDelayMs };
    this.log('fault', `slow launch of ${pkg}: its window has no content for ${this.traits.launchDelayMs} ms`);
  }

  private backNavigated(from: ForegroundInfo): void {
    const { staleMs, noFocusMs } = this.traits.backFocusLag;
    if (staleMs + noFocusMs <= 0) {
      this.backLag = null;
      return;
    }
    const now = this.clock.nowMs();
    this.backLag = { from, generation: this.ui.generation, staleUntil: now + staleMs, noFocusUntil: now + staleMs + noFocusMs };
    this.log('fault', `back: window focus stays on ${from.package} for ${staleMs} ms, then no window has it for ${noFocusMs} ms`);
  }

  /** Where the window focus is while it catches up with the last Back; null once it has. */
  private focusInTransit(): FocusInTransit | null {
    const lag = this.backLag;
    // Another navigation since the Back (a tap, am start) ends the transition.
    if (!lag || lag.generation !== this.ui.generation || this.clock.nowMs() >= lag.noFocusUntil) {
      this.backLag = null;
      return null;
    }
    return this.clock.nowMs() < lag.staleUntil ? { phase: 'stale', previous: lag.from } : { phase: 'none' };
  }

  private settingsHelperStarted(): void {
    const ms = this.traits.settingsHelperFocusMs;
    if (ms <= 0) return;
    this.helperFocusUntil = this.clock.nowMs() + ms;
    this.ui.hideIme('io.appium.settings/.Settings took the focus');
    this.log('fault', `io.appium.settings/.Settings holds the window focus for ${ms} ms`);
  }

  private settingsHelperInFront(): ForegroundInfo | null {
    if (this.helperFocusUntil === null || this.clock.nowMs() >= this.helperFocusUntil) {
      this.helperFocusUntil = null;
      return null;
    }
    return { package: 'io.appium.settings', activity: 'io.appium.settings.Settings', screenId: '' };
  }

  private launchInProgress(): { pkg: string; previousXml: string } | null {
    if (this.pendingLaunch && this.clock.nowMs() >= this.pendingLaunch.until) this.pendingLaunch = null;
    return this.pendingLaunch;
  }

  // --- internals -----------------------------------------------------------------

  private faultFor(target: 'shell' | 'uia2', subject: string): 'hang' | number {
    let delay = 0;
    for (const f of this.activeFaults) {
      if (f.kind === 'hung' && faultApplies(f, target, subject)) return 'hang';
      if (f.kind === 'slow' && faultApplies(f, target, subject)) delay = Math.max(delay, f.delayMs);
    }
    return delay;
  }

  /** What the UiAutomator2 server's page source says of the display (its root's rotation, width, height). */
  pageSourceDisplay(): { rotation: Rotation; width: number; height: number } {
    return { rotation: this.ui.displayRotation(), ...this.ui.displaySize() };
  }

  screenshotPng(): Buffer {
    // A display that is off captures black (issue 12: the asleep trait).
    const blank = this.activeFaults.some((f) => f.kind === 'blank-screenshot') || this.traits.asleep !== false;
    // AOSP screencap: the frame of the display in its current rotation (docs/device-quirks.md).
    const display = this.ui.displaySize();
    const key = `${this.ui.version}:${this.ui.imeVisible()}:${blank}:${this.traits.locked}:${this.ui.foreground().screenId}:${display.width}x${display.height}`;
    if (this.screenshotCache?.key !== key) {
      this.screenshotCache = {
        key,
        png: renderScreenshot({
          root: this.ui.tree(),
          screenId: this.ui.foreground().screenId,
          imeFrame: this.ui.imeVisible() ? this.ui.imeFrame() : null,
          blank,
          width: display.width,
          height: display.height,
        }),
      };
    }
    return this.screenshotCache.png;
  }

  private async dumpHierarchy(signal: AbortSignal): Promise<DumpOutcome> {
    if (!this.instrumentation.acquireForDump()) {
      if (this.traits.dumpConflict === 'killed' && this.instrumentation.uiAutomationHolder() === 'instrumentation') {
        // Suspected on some devices (docs/device-quirks.md, QUIRK-DUMP-KILLED-1): SIGKILL, nothing printed.
        this.log('fault', 'uiautomator dump: killed (exit 137) while the instrumentation holds UiAutomation');
        return { ok: false, code: 137, stdout: '', stderr: '' };
      }
      this.log('shell', 'uiautomator dump: UiAutomation is held by the instrumentation');
      const msg = uiAutomationAlreadyRegistered('4b0e3b3');
      return {
        ok: false,
        code: 1,
        stdout: '',
        stderr:
          'java.lang.RuntimeException: Error while connecting UiAutomation@5f3c8e0[id=-1, displayId=0, flags=0]\n' +
          '\tat android.app.UiAutomation.connectWithTimeout(UiAutomation.java:380)\n' +
          '\tat com.android.uiautomator.core.UiAutomationShellWrapper.connect(UiAutomationShellWrapper.java:60)\n' +
          '\tat com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java:80)\n' +
          '\tat com.android.commands.uiautomator.Launcher.main(Launcher.java:83)\n' +
          '\tat com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)\n' +
          '\tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:355)\n' +
          `Caused by: java.lang.IllegalStateException: ${msg}\n` +
          '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3069)\n' +
          '\tat android.os.Parcel.createException(Parcel.java:3053)\n' +
          '\tat android.os.Parcel.readException(Parcel.java:3036)\n' +
          '\tat android.os.Parcel.readException(Parcel.java:2978)\n' +
          '\tat android.view.accessibility.IAccessibilityManager$Stub$Proxy.registerUiTestAutomationService(IAccessibilityManager.java:1151)\n',
      };
    }
    try {
      const duration = this.options.dumpDurationMs ?? 0;
      if (duration > 0) await this.clock.sleep(duration, signal);
      // DumpCommand: waitForIdle(1000 ms quiet, 10 s global) before it asks for the root; on a
      // screen that never idles the TimeoutException comes after the whole 10 s, in real time.
      if (!this.screenActivity().idles) {
        this.log('fault', `uiautomator dump: waiting up to ${DUMP_IDLE_TIMEOUT_MS} ms for idle`);
        await this.clock.sleep(DUMP_IDLE_TIMEOUT_MS, signal);
        this.log('fault', 'uiautomator dump: could not get idle state');
        return { ok: false, code: 0, stdout: '', stderr: 'ERROR: could not get idle state.\n' };
      }
      const nullRoot = this.activeFaults.find((f) => f.kind === 'null-root');
      if (nullRoot && nullRoot.kind === 'null-root' && nullRoot.times > 0) {
        const remaining = nullRoot.times - 1;
        this.activeFaults.splice(this.activeFaults.indexOf(nullRoot), 1);
        if (remaining > 0) this.activeFaults.push({ kind: 'null-root', times: remaining });
        this.log('fault', `uiautomator dump: null root node (${remaining} more)`);
        return { ok: false, code: 0, stdout: '', stderr: 'ERROR: null root node returned by UiTestAutomationBridge.\n' };
      }
      if (this.activeFaults.some((f) => f.kind === 'empty-dump')) {
        return { ok: true, xml: `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0" />` };
      }
      const launching = this.launchInProgress();
      const xml = launching ? launching.previousXml : toDumpXml(this.ui.tree(), this.ui.displayRotation());
      if (this.activeFaults.some((f) => f.kind === 'malformed-dump')) {
        return { ok: true, xml: `${xml.slice(0, Math.floor(xml.length / 2))}<node index="0" text="broken` };
      }
      return { ok: true, xml };
    } finally {
      this.instrumentation.releaseDump();
    }
  }
}

function withPlatformPackages(scenario: ScenarioSpec, versions: HelperVersions): ScenarioSpec {
  const declared = new Set(scenario.packages.map((p) => p.name));
  const extra: PackageSpec[] = platformPackages(versions).filter((p) => !declared.has(p.name));
  return { ...scenario, packages: [...scenario.packages, ...extra] };
}
