/**
 * The virtual Android device: what the ADB transport calls (`DeviceServices`) and what
 * tests drive in-process (screens, the ordered log, faults, traits). It holds small
 * collaborators, each with one concern: the shell, the faults, the window transitions,
 * the app processes, boot and identity, the log. See docs/internals/virtual-device.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type {
  DeviceConnectionState,
  DeviceLogEntry,
  DeviceLogKind,
  DeviceServices,
  ShellIo,
  ShellOrigin,
  VirtualFileStat,
} from '../contracts.js';
import { defaultScenario } from '../scenario/defaultScenario.js';
import { withKeyguard } from '../scenario/keyguard.js';
import { loadScenarioFile } from '../scenario/load.js';
import type { ScenarioSpec } from '../scenario/model.js';
import { normalizeScenario } from '../scenario/normalize.js';
import { withNotificationShade } from '../scenario/notificationShade.js';
import { LogcatBuffer } from '../shell/context.js';
import { liveWindowFacts } from '../shell/commands/dumpsysWindow.js';
import { serverBounds } from '../uia2/bounds.js';
import { CostModel, countNodes, defaultTiming } from '../timing/costModel.js';
import { Uia2Server } from '../uia2/server.js';
import { AppProcesses } from './appProcesses.js';
import { realClock, type DeviceClock } from './clock.js';
import { DeviceLog } from './deviceLog.js';
import type { CurrentScreen, StaticScreenOptions, VirtualDeviceOptions } from './deviceOptions.js';
import { DeviceShell } from './deviceShell.js';
import { FaultInjector } from './faultInjector.js';
import type { Fault, ScreenActivity } from './faults.js';
import { detectHelperVersions } from './helperVersions.js';
import { dumpHierarchy, type HierarchyDumpDeps } from './hierarchyDump.js';
import { BootSequence, identify, setSdkProps } from './identity.js';
import { Instrumentation } from './instrumentation.js';
import { PackageService } from './packageService.js';
import { CaptureThread } from './captureThread.js';
import { ScreenCapture } from './screenshot.js';
import { toDumpXml, toPageSource } from './serialize.js';
import { STATIC_SCREEN_ID, staticScreenScenario, withPlatformPackages } from './staticScreen.js';
import { pngSize } from './render/png.js';
import { SystemState } from './system.js';
import { TraitControls } from './traitControls.js';
import {
  DeviceTraits,
  type DumpConflict,
  type PasswordText,
  type Rotation,
  type Sleep,
  type VirtualDisplay,
} from './traits.js';
import { DeviceUi, type ClickRecord, type ForegroundInfo } from './ui.js';
import { flatten, type UiElement } from './uiTree.js';
import type { BackFocusLag, LastAnr } from './windowState.js';
import { WindowTransitions, type AnrOptions } from './windowTransitions.js';

export { DUMP_IDLE_TIMEOUT_MS } from './hierarchyDump.js';
export { EMULATOR_BUILD_SERIALNO } from './identity.js';
export type { AnrOptions } from './windowTransitions.js';
export type { CurrentScreen, StaticScreenOptions, VirtualDeviceOptions } from './deviceOptions.js';

/** surfaceflinger's pid in the device's process table (a native daemon, so its lines go to main). */
const SURFACEFLINGER_PID = 362;

export class VirtualDevice implements DeviceServices {
  private readonly clock: DeviceClock;
  /** Time as a real device spends it, or none (`fast`). */
  readonly cost: CostModel;
  private readonly deviceLog: DeviceLog;
  private readonly faultInjector: FaultInjector;
  private readonly windows: WindowTransitions;
  private readonly processes: AppProcesses;
  private readonly shell: DeviceShell;
  private readonly traitControls: TraitControls;
  private readonly capture: ScreenCapture;
  private readonly captureThread = new CaptureThread();
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly instrumentation: Instrumentation;
  private readonly packages: PackageService;
  readonly logcat: LogcatBuffer;
  private readonly uia2: Uia2Server;
  private legacy: boolean;
  private state: DeviceConnectionState;
  /** The traits a test can change (displays, launch delay, lock, …); the API level and density live in `system`. */
  readonly traits: DeviceTraits;

  constructor(
    scenario: ScenarioSpec,
    private readonly options: VirtualDeviceOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.deviceLog = new DeviceLog(this.clock, options.onLog);
    this.legacy = options.legacyPty ?? false;
    this.state = options.connectionState ?? 'device';
    this.traits = new DeviceTraits(options);
    const log = (kind: DeviceLogKind, detail: string): void => this.log(kind, detail);
    this.logcat = new LogcatBuffer(this.clock);
    this.system = new SystemState(scenario.packages, () => Math.floor(this.clock.nowMs() / 1000));
    identify(this.system.props, options);
    this.ui = new DeviceUi(
      normalizeScenario(withNotificationShade(withKeyguard(scenario))),
      log,
      () => this.system.density(),
      {
        backNavigated: (from) => this.windows.backNavigated(from),
        appLogged: (pkg, action) => this.processes.logged(pkg, action.priority, action.tag, action.message),
        appCrashed: (pkg, action, activity) => this.processes.crashed(pkg, action, activity),
      },
      () => ({ passwordText: this.traits.passwordText }),
      () => this.system.longPressTimeoutMs(),
      () => (this.traits.locked ? 'keyguard' : this.traits.asleep !== false ? 'off' : null),
      () => this.traits.activeDisplay(),
    );
    this.processes = new AppProcesses(this.ui, this.system, this.logcat, log);
    this.capture = new ScreenCapture(
      {
        ui: this.ui,
        // A display that is off captures black (the asleep trait).
        blank: () => this.faultInjector.has('blank-screenshot') || this.traits.asleep !== false,
        locked: () => this.traits.locked,
      },
      this.captureThread,
      options.realCapture,
    );
    if (options.rotation !== undefined) this.ui.startAt(options.rotation);
    if (options.sdk !== undefined) setSdkProps(this.system.props, options.sdk);
    if (options.densityOverride !== undefined) this.system.densityOverride = options.densityOverride;
    this.cost = new CostModel(
      options.timing ?? defaultTiming(),
      this.clock,
      {
        nodes: () => countNodes(this.ui.tree()),
        megapixels: () => {
          const { width, height } = this.ui.displaySize();
          return (width * height) / 1e6;
        },
        packageRunning: (pkg) => this.ui.packagesInStack().includes(pkg),
      },
      options.timingSeed,
    );
    this.instrumentation = new Instrumentation(this.system, this.clock, log, options.instrumentationStartupMs ?? 800);
    const scenarioPackages = new Map(scenario.packages.map((p) => [p.name, p]));
    this.packages = new PackageService(this.system, this.ui, this.instrumentation, scenarioPackages, log);
    this.faultInjector = new FaultInjector(this.clock, this.instrumentation, log);
    const faults = this.faultInjector;
    this.uia2 = new Uia2Server({
      ui: this.ui,
      system: this.system,
      instrumentation: this.instrumentation,
      clock: this.clock,
      cost: this.cost,
      log,
      capturePng: () => this.capture.capture(),
      secureCaptureRefused: () => this.secureCaptureRefused('uia2'),
      display: () => this.pageSourceDisplay(),
      requestFault: (subject) => faults.delayFor('uia2', subject),
      requestError: (subject) => faults.errorFor(subject),
      screenActivity: () => faults.screenActivity(),
    });
    const uia2 = this.uia2;
    faults.sessionLost = () => uia2.forgetSession();
    this.windows = new WindowTransitions({
      clock: this.clock,
      traits: this.traits,
      ui: this.ui,
      system: this.system,
      logcat: this.logcat,
      log,
      liveWindowFacts: () => liveWindowFacts(this.shell.device),
    });
    const windows = this.windows;
    const boot = new BootSequence(this.system.props, this.clock, log);
    this.traitControls = new TraitControls(this.traits, this.ui, this.system, windows, boot, log);
    const dump: HierarchyDumpDeps = {
      ui: this.ui,
      instrumentation: this.instrumentation,
      traits: this.traits,
      clock: this.clock,
      faults,
      dumpDurationMs: options.dumpDurationMs,
      cost: this.cost,
      log,
      launchInProgress: () => windows.launchInProgress(),
    };
    this.shell = new DeviceShell(
      {
        ui: this.ui,
        system: this.system,
        instrumentation: this.instrumentation,
        clock: this.clock,
        traits: this.traits,
        logcat: this.logcat,
        log,
        capturePng: () => this.capture.capture(),
        secureCaptureRefused: () => this.secureCaptureRefused('screencap'),
        dumpHierarchy: (signal) => dumpHierarchy(dump, signal),
      },
      windows,
      faults,
      this.cost,
    );
    this.logcat.add('ActivityManager', 'System now ready', 'I', 541);
    this.processes.sync();
    if (options.bootDelayMs !== undefined && options.bootDelayMs > 0) this.setBooting(options.bootDelayMs);
  }

  // --- factories -------------------------------------------------------------

  /** Launcher, Settings (every row of the acceptance oracle, test/e2e/oracle.test.ts), a Flutter-style notes app and placeholder apps. */
  static withDefaultScenario(options: VirtualDeviceOptions = {}): VirtualDevice {
    return new VirtualDevice(defaultScenario(options.helperVersions ?? detectHelperVersions()), options);
  }

  /** A scenario file (JSON, see docs/internals/virtual-device.md); Appium's helper packages are added when it omits them. */
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
    const built = staticScreenScenario(dumpXml, options);
    const device = new VirtualDevice(
      withPlatformPackages(built.scenario, built.options.helperVersions ?? detectHelperVersions()),
      {
        ...built.options,
        ...(options.screenshotPng ? { realCapture: { screenId: STATIC_SCREEN_ID, png: options.screenshotPng } } : {}),
      },
    );
    if (options.screenshotPng) {
      // A capture of another size than the dump's display would put every box off its pixels: refused, not served.
      const size = pngSize(options.screenshotPng);
      const display = device.ui.displaySize();
      if (size.width !== display.width || size.height !== display.height)
        throw new Error(
          `the screenshot is ${size.width}x${size.height} but the dump's display is ${display.width}x${display.height}: ` +
            'give the capture taken with this dump',
        );
    }
    return device;
  }

  /** Reads a dump file (and a capture of the same screen, when given) for `withStaticScreen`. */
  static fromDumpFile(file: string, options: StaticScreenOptions = {}, screenshotFile?: string): VirtualDevice {
    return VirtualDevice.withStaticScreen(readFileSync(path.resolve(file), 'utf8'), {
      ...options,
      ...(screenshotFile === undefined ? {} : { screenshotPng: readFileSync(path.resolve(screenshotFile)) }),
    });
  }

  // --- DeviceServices -----------------------------------------------------------

  bannerProperties(): { name: string; model: string; device: string } {
    const p = this.system.props;
    return {
      name: p.get('ro.product.name') ?? '',
      model: p.get('ro.product.model') ?? '',
      device: p.get('ro.product.device') ?? '',
    };
  }

  isOnline(): boolean {
    return this.faultInjector.online();
  }

  legacyPty(): boolean {
    return this.legacy;
  }

  connectionState(): DeviceConnectionState {
    return this.state;
  }

  runShell(commandLine: string, io: ShellIo, origin: ShellOrigin): Promise<number> {
    return this.shell.run(commandLine, io, origin);
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

  installPackage(args: readonly string[], apk: Buffer): Promise<string> {
    return this.packages.install(args, apk);
  }

  runAbb(args: readonly string[]): string {
    return this.packages.run(args);
  }

  /** With no arguments: the ordered device log (control API). With arguments: appends to it (DeviceServices). */
  log(): readonly DeviceLogEntry[];
  log(kind: DeviceLogKind, detail: string): void;
  log(kind?: DeviceLogKind, detail?: string): readonly DeviceLogEntry[] | undefined {
    if (kind === undefined) return this.deviceLog.entries();
    const entry = this.deviceLog.append(kind, detail ?? '');
    if (kind === 'screen') {
      this.logcat.add('WindowManager', entry.detail, 'I', 541);
      this.processes.sync();
    }
    this.deviceLog.announce(entry);
    return undefined;
  }

  // --- control API for tests -------------------------------------------------------

  /** The ordered device log: every shell command, UIA2 request, click, input and screen change. */
  logEntries(): readonly DeviceLogEntry[] {
    return this.deviceLog.entries();
  }

  clearLog(): void {
    this.deviceLog.clear();
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
    this.windows.settle();
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
    this.faultInjector.inject(fault);
  }

  clearFaults(): void {
    this.faultInjector.clear();
  }

  faults(): readonly Fault[] {
    return this.faultInjector.list();
  }

  /** Whether the screen idles and its root can be read now (the idle-state and ui-busy faults). */
  screenActivity(): ScreenActivity {
    return this.faultInjector.screenActivity();
  }

  setLegacyPty(on: boolean): void {
    this.legacy = on;
  }

  setConnectionState(state: DeviceConnectionState): void {
    this.state = state;
  }

  // --- traits (docs/internals/device-quirks.md; what each does is said in traitControls.ts) ----------

  setRotation(rotation: Rotation): void {
    this.traitControls.setRotation(rotation);
  }

  setDisplays(displays: readonly VirtualDisplay[]): void {
    this.traitControls.setDisplays(displays);
  }

  setLaunchDelay(ms: number): void {
    this.traitControls.setLaunchDelay(ms);
  }

  setBackFocusLag(lag: BackFocusLag): void {
    this.traitControls.setBackFocusLag(lag);
  }

  setPasswordText(mode: PasswordText): void {
    this.traitControls.setPasswordText(mode);
  }

  setDumpConflict(mode: DumpConflict): void {
    this.traitControls.setDumpConflict(mode);
  }

  setLocked(on: boolean): void {
    this.traitControls.setLocked(on);
  }

  setAsleep(sleep: Sleep): void {
    this.traitControls.setAsleep(sleep);
  }

  setSettingsHelperFocus(ms: number): void {
    this.traitControls.setSettingsHelperFocus(ms);
  }

  stopSettingsHelper(): void {
    this.traitControls.stopSettingsHelper();
  }

  setSdk(sdk: number): void {
    this.traitControls.setSdk(sdk);
  }

  setDensityOverride(density: number | null): void {
    this.traitControls.setDensityOverride(density);
  }

  setBooting(ms: number): void {
    this.traitControls.setBooting(ms);
  }

  /** Back to the traits of a booted API 34 phone with shell_v2 and the connection state it was made with. */
  resetTraits(): void {
    this.traitControls.reset();
    this.legacy = this.options.legacyPty ?? false;
    this.state = this.options.connectionState ?? 'device';
  }

  /** An ANR happens now: `dumpsys window` prints the state of this moment until it is forgotten (windowTransitions.ts). */
  recordAnr(options: AnrOptions = {}): void {
    this.windows.recordAnr(options);
  }

  clearAnr(): void {
    this.windows.clearAnr();
  }

  /** The last ANR the window manager still remembers. */
  lastAnr(): LastAnr | null {
    return this.windows.lastAnr();
  }

  // --- what the screen shows ------------------------------------------------------

  /** What the UiAutomator2 server's page source says of the display (its root's rotation, width, height). */
  pageSourceDisplay(): { rotation: Rotation; width: number; height: number } {
    return { rotation: this.ui.displayRotation(), ...this.ui.displaySize() };
  }

  /** What a capture shows now, drawn in this thread (`screencap` and UIA2 draw theirs in the capture thread). */
  /**
   * SurfaceFlinger's answer to a capture by the shell or UiAutomation while a FLAG_SECURE window is
   * visible: PERMISSION_DENIED (renderScreenImpl: `capturedSecureLayers && !canCaptureBlackoutContent`,
   * logged as `W SurfaceFlinger: FB is protected: PERMISSION_DENIED`). The secure window, or null.
   */
  private secureCaptureRefused(by: string): string | null {
    const secure = this.ui.secureWindow();
    if (secure === null) return null;
    this.logcat.add('SurfaceFlinger', 'FB is protected: PERMISSION_DENIED', 'W', SURFACEFLINGER_PID, 'main');
    this.deviceLog.append(
      'screen',
      `${by} capture refused: ${secure} is FLAG_SECURE (FB is protected: PERMISSION_DENIED)`,
    );
    return secure;
  }

  screenshotPng(): Buffer {
    return this.capture.png();
  }

  // --- life ---------------------------------------------------------------------

  /**
   * The device is put away: the threads that draw captures end once no other open device of this
   * process has captured, so that no thread outlives the devices. The device stays usable (a later
   * capture starts a thread again).
   */
  close(): Promise<void> {
    return this.captureThread.close();
  }
}
