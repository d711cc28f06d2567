import type { WindowState } from '../../domain/tree/screen.js';
import type {
  AutomationGateway,
  AutomationSession,
  Clock,
  DeviceGateway,
  ElementRef,
  Locator,
  Logger,
} from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import { withDeadline } from './deadline.js';
import { driverIdleTimeoutMs } from '../../domain/driverIdleTimeout.js';
import { serverIdleWaitMs } from './idleWaitBudget.js';

export interface CeilingSettings {
  /** ANDROID_MCP_ACTION_TIMEOUT: every device or driver call made while the gate is held. */
  readonly actionTimeoutMs: number;
  /** ANDROID_MCP_CONNECT_TIMEOUT: Appium session creation. */
  readonly connectTimeoutMs: number;
}

/**
 * The two budgets (docs/reference/contract.md, "Sessions, ceilings, no orphans"). Every port call the
 * application makes while it holds the device goes through here, so no hung adb or Appium reply can
 * hold the gate forever.
 */
export class Ceilings {
  constructor(
    private readonly clock: Clock,
    readonly settings: CeilingSettings,
    private readonly logger: Logger,
  ) {}

  action<T>(what: string, work: Promise<T>): Promise<T> {
    const seconds = Math.round(this.settings.actionTimeoutMs / 1000);
    return withDeadline(
      this.clock,
      this.settings.actionTimeoutMs,
      work,
      `The device did not finish ${what} within ${seconds} s (ANDROID_MCP_ACTION_TIMEOUT). ` +
        'The call was abandoned and the device released: check that the emulator responds (emulator_get_status), then retry.',
    );
  }

  /**
   * Opens an Appium session within the connect budget. A session that Appium creates
   * after the budget ran out is closed as soon as it arrives: no orphans. `heldIdleMs` is the
   * longest the caller leaves the session unused between its calls (a UI session's idle lease, 0 for
   * a warm session); the driver is told to wait longer than that (driverIdleTimeoutMs).
   * The server's wait for idle is kept inside one action ceiling (serverIdleWaitMs).
   */
  async openSession(gateway: AutomationGateway, heldIdleMs: number, onAsked?: () => void): Promise<AutomationSession> {
    const seconds = Math.round(this.settings.connectTimeoutMs / 1000);
    const raw = await withDeadline(
      this.clock,
      this.settings.connectTimeoutMs,
      gateway.openSession({
        idleTimeoutMs: driverIdleTimeoutMs(heldIdleMs, this.settings.actionTimeoutMs),
        waitForIdleTimeoutMs: serverIdleWaitMs(this.settings.actionTimeoutMs),
        leaseMs: heldIdleMs,
        ...(onAsked ? { onAsked } : {}),
      }),
      `Appium did not create a session within ${seconds} s (ANDROID_MCP_CONNECT_TIMEOUT). ` +
        'Check that Appium runs with the UiAutomator2 driver and that the device is online, then retry.',
      (late) => {
        this.logger.warn('closing an Appium session that arrived after the connect budget', { session: late.id });
        late.close().catch((error: unknown) => {
          this.logger.warn('could not close a late Appium session', { session: late.id, cause: String(error) });
        });
      },
    );
    return this.session(raw);
  }

  /** The same session with every call bounded by the action ceiling. */
  session(inner: AutomationSession): AutomationSession {
    const bound = <T>(what: string, work: () => Promise<T>): Promise<T> => this.action(what, work());
    return {
      id: inner.id,
      // A find already carries its own wait; the ceiling is the outer net.
      findElement: (locator: Locator, timeoutMs: number) =>
        bound('finding an element', () => inner.findElement(locator, timeoutMs)),
      findElements: (locator: Locator, timeoutMs: number) =>
        bound('finding an element', () => inner.findElements(locator, timeoutMs)),
      elementLabel: (element: ElementRef) => bound('reading an element label', () => inner.elementLabel(element)),
      elementText: (element: ElementRef) => bound('reading an element text', () => inner.elementText(element)),
      elementPlace: (element: ElementRef) => bound('reading where an element is', () => inner.elementPlace(element)),
      elementBounds: (element: ElementRef) => bound('reading where an element is', () => inner.elementBounds(element)),
      isFocused: (element: ElementRef) => bound('reading whether an element has focus', () => inner.isFocused(element)),
      click: (element: ElementRef) => bound('a tap', () => inner.click(element)),
      longClick: (element: ElementRef, holdMs: number) => bound('a long press', () => inner.longClick(element, holdMs)),
      typeText: (element: ElementRef, text: string) => bound('typing', () => inner.typeText(element, text)),
      swipe: (path) => bound('a swipe', () => inner.swipe(path)),
      pressAt: (point, holdMs) => bound(holdMs > 0 ? 'a long press' : 'a tap', () => inner.pressAt(point, holdMs)),
      windowSize: () => bound('reading the window size', () => inner.windowSize()),
      back: () => bound('pressing back', () => inner.back()),
      pressKey: (keycode: number) => bound('pressing a key', () => inner.pressKey(keycode)),
      openNotifications: () => bound('opening the notification shade', () => inner.openNotifications()),
      setOrientation: (orientation) => bound('turning the screen', () => inner.setOrientation(orientation)),
      pageSource: () => bound('reading the page source', () => inner.pageSource()),
      screenshot: () => bound('a screenshot', () => inner.screenshot()),
      execute: (command, args) => bound(`the driver command ${command}`, () => inner.execute(command, args)),
      close: () => bound('closing the Appium session', () => inner.close()),
    };
  }

  /** The device gateway with every adb call bounded by the action ceiling. */
  device(inner: DeviceGateway): DeviceGateway {
    const bound = <T>(what: string, work: () => Promise<T>): Promise<T> => this.action(what, work());
    return {
      getState: () => bound('adb get-state', () => inner.getState()),
      getAndroidVersion: () => bound('reading the Android version', () => inner.getAndroidVersion()),
      getModel: () => bound('reading the model', () => inner.getModel()),
      listPackages: () => bound('listing packages', () => inner.listPackages()),
      getDensity: () => bound('reading the density', () => inner.getDensity()),
      getWindowState: (): Promise<WindowState> => bound('reading the window state', () => inner.getWindowState()),
      getWakefulness: () => bound('reading the power state', () => inner.getWakefulness()),
      dumpUi: () => bound('the UI dump', () => inner.dumpUi()),
      screencap: () => bound('the screen capture', () => inner.screencap()),
      resolveLauncherActivity: (pkg: PackageName) =>
        bound('resolving the launcher activity', () => inner.resolveLauncherActivity(pkg)),
      startActivity: (component: string) => bound('starting the activity', () => inner.startActivity(component)),
      startApplicationSettings: () => bound('opening Settings', () => inner.startApplicationSettings()),
      openLink: (uri, pkg) => bound('opening the link', () => inner.openLink(uri, pkg)),
      forceStop: (pkg: PackageName) => bound('stopping the app', () => inner.forceStop(pkg)),
      clearData: (pkg: PackageName) => bound('clearing the app data', () => inner.clearData(pkg)),
      installApk: (hostPath: string) => bound('installing the APK', () => inner.installApk(hostPath)),
      listProcesses: () => bound('listing the processes', () => inner.listProcesses()),
      readAppLog: (pid: number, lines: number) => bound('reading the app log', () => inner.readAppLog(pid, lines)),
      readCrashLog: () => bound('reading the crash log', () => inner.readCrashLog()),
      readAnrEvents: () => bound('reading the ANR events', () => inner.readAnrEvents()),
    };
  }
}
