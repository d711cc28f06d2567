/**
 * The DeviceGateway of remote mode (ANDROID_MCP_REMOTE=1): the device is behind a
 * WebDriver endpoint (a Selenium Grid, a device farm) and this machine has no adb for it, so every
 * read and launch goes through a UiAutomator2 session instead. The services do not know: they ask
 * the same port as with adb.
 *
 * Where the session comes from is the application's business (DriverSessionSource: the UI session's, the
 * kept one, or a kept one opened for the read). Only the closed list of `mobile:` commands is sent
 * (DRIVER_DEVICE_COMMANDS); their names and arguments are appium-android-driver's
 * execute-method-map (docs/internals/device-quirks.md, "Remote mode: the driver's commands").
 */
import { z } from 'zod';
import { HarnessError } from '../../domain/errors.js';
import type { DeviceGateway, DriverSessionSource, InstallOutcome, LinkStart } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import type { LinkUri } from '../../domain/links/linkUri.js';
import type { Wakefulness, WindowState } from '../../domain/tree/screen.js';

/** appium-android-driver's APP_STATE: 0 not installed, 1 not running, 3 background, 4 foreground. */
const APP_NOT_INSTALLED = 0;

const text = z.string();
const flag = z.boolean();
const count = z.number().finite().positive();
const appState = z.number().int();
const deviceInfo = z.object({ platformVersion: z.string().optional(), model: z.string().optional() }).passthrough();
/** `mobile: listApps`: package name → {packageName, versionCode}. */
const appMap = z.record(z.string(), z.unknown());

/** The message of every tool that needs local adb in remote mode: what to use instead. */
export function notAvailableRemotely(what: string, instead: string): HarnessError {
  return new HarnessError(
    'NOT_AVAILABLE_REMOTELY',
    `${what} needs adb on this machine, and in remote mode (ANDROID_MCP_REMOTE=1) the device is behind a WebDriver endpoint, so it was not done. ${instead}`,
  );
}

export class DriverDeviceGateway implements DeviceGateway {
  constructor(private readonly sessions: DriverSessionSource) {}

  /** The endpoint gave a session on a device that answers: usable. */
  async getState(): Promise<string> {
    await this.sessions.withSession((session) => session.windowSize());
    return 'device';
  }

  async getAndroidVersion(): Promise<string> {
    return (await this.info()).platformVersion ?? '';
  }

  async getModel(): Promise<string> {
    return (await this.info()).model ?? '';
  }

  async listPackages(): Promise<string[]> {
    const value = await this.sessions.withSession((session) => session.execute('mobile: listApps', {}));
    return Object.keys(parse(appMap, value, 'mobile: listApps'));
  }

  /**
   * `mobile: getDisplayDensity` reads `wm density`'s Physical density (appium-adb getScreenDensity):
   * an override (`wm density 320`) is not seen, unlike the adb gateway (docs/internals/device-quirks.md).
   */
  async getDensity(): Promise<number> {
    const value = await this.sessions.withSession((session) => session.execute('mobile: getDisplayDensity', {}));
    return parse(count, value, 'mobile: getDisplayDensity');
  }

  /**
   * The focused package and activity, the keyboard and the lock, each through the driver (which
   * reads `dumpsys window` on its side). `mobile: isLocked` is true for a keyguard and for a screen
   * that is off alike, so both read as locked here; the system bars are not known (none assumed).
   */
  async getWindowState(): Promise<WindowState> {
    const [pkg, activity, keyboard, locked, size] = await this.sessions.withSession((session) =>
      Promise.all([
        session.execute('mobile: getCurrentPackage', {}),
        session.execute('mobile: getCurrentActivity', {}),
        session.execute('mobile: isKeyboardShown', {}),
        session.execute('mobile: isLocked', {}),
        session.windowSize(),
      ]),
    );
    const foregroundPackage = plainName(pkg);
    return {
      foregroundPackage,
      foregroundActivity: qualified(foregroundPackage, plainName(activity)),
      ime: { visible: parse(flag, keyboard, 'mobile: isKeyboardShown'), frame: null },
      displaySize: { width: size.width, height: size.height },
      lock: { locked: parse(flag, locked, 'mobile: isLocked'), awake: null },
    };
  }

  /** The driver does not tell wakefulness apart from the lock (`mobile: isLocked` covers both). */
  async getWakefulness(): Promise<Wakefulness | null> {
    return null;
  }

  async dumpUi(): Promise<string> {
    return this.sessions.withSession((session) => session.pageSource());
  }

  async screencap(): Promise<Buffer> {
    return this.sessions.withSession((session) => session.screenshot());
  }

  /**
   * The driver resolves the launcher activity itself when it activates (appium-adb activateApp:
   * `cmd package resolve-activity --brief <pkg>`), so this only answers whether the package is
   * there: the bare package, which startActivity hands to `mobile: activateApp`, or null.
   */
  async resolveLauncherActivity(pkg: PackageName): Promise<string | null> {
    const value = await this.sessions.withSession((session) =>
      session.execute('mobile: queryAppState', { appId: pkg }),
    );
    return parse(appState, value, 'mobile: queryAppState') === APP_NOT_INSTALLED ? null : pkg;
  }

  async startActivity(component: string): Promise<void> {
    const slash = component.indexOf('/');
    if (slash < 0) {
      await this.sessions.withSession((session) =>
        session.execute('mobile: activateApp', { appId: component as PackageName }),
      );
      return;
    }
    await this.sessions.withSession((session) => session.execute('mobile: startActivity', { component, wait: true }));
  }

  async startApplicationSettings(): Promise<void> {
    await this.sessions.withSession((session) =>
      session.execute('mobile: startActivity', {
        action: 'android.settings.APPLICATION_SETTINGS',
        wait: true,
        stop: true,
      }),
    );
  }

  async forceStop(pkg: PackageName): Promise<void> {
    await this.sessions.withSession((session) => session.execute('mobile: terminateApp', { appId: pkg }));
  }

  /** `mobile: clearApp` (appium-adb clear: `pm clear`) throws when the device answers `Failed`. */
  async clearData(pkg: PackageName): Promise<boolean> {
    try {
      await this.sessions.withSession((session) => session.execute('mobile: clearApp', { appId: pkg }));
      return true;
    } catch (error) {
      if (error instanceof HarnessError && error.code === 'INTERNAL_ERROR') return false;
      throw error;
    }
  }

  /**
   * Not through the driver: its `mobile: deepLink` (appium-adb startUri) puts the link on the
   * device's command line unquoted, escaping only `&`, so a `?` or `#` of the link would meet
   * the shell bare. The harness sends model text to a shell only in its own quoting.
   */
  openLink(_uri: LinkUri, _pkg: PackageName | null): Promise<LinkStart> {
    return Promise.reject(
      notAvailableRemotely(
        'app_open_link',
        'Open the link through your device farm, or use app_open and navigate to the content with ui_tap.',
      ),
    );
  }

  installApk(_hostPath: string): Promise<InstallOutcome> {
    return Promise.reject(
      notAvailableRemotely(
        'app_install',
        'Install the app through your Grid or device farm (its app upload and the appium:app capability in ANDROID_MCP_APPIUM_CAPS), then use app_open.',
      ),
    );
  }

  listProcesses(): Promise<readonly { readonly pid: number; readonly name: string }[]> {
    return Promise.reject(
      notAvailableRemotely('app_logs', "Read the app's log in your device farm's session logs (its dashboard or API)."),
    );
  }

  readAppLog(_pid: number, _lines: number): Promise<string> {
    return Promise.reject(
      notAvailableRemotely('app_logs', "Read the app's log in your device farm's session logs (its dashboard or API)."),
    );
  }

  readCrashLog(): Promise<string> {
    return Promise.reject(
      notAvailableRemotely('app_crashes', "Read crashes in your device farm's session logs (its dashboard or API)."),
    );
  }

  readAnrEvents(): Promise<string> {
    return Promise.reject(
      notAvailableRemotely('app_crashes', "Read crashes in your device farm's session logs (its dashboard or API)."),
    );
  }

  private async info(): Promise<z.infer<typeof deviceInfo>> {
    const value = await this.sessions.withSession((session) => session.execute('mobile: deviceInfo', {}));
    return parse(deviceInfo, value, 'mobile: deviceInfo');
  }
}

/** The driver's answer at the boundary: a shape it never gives is the driver's fault, said as such. */
function parse<T>(schema: z.ZodType<T>, value: unknown, command: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new HarnessError(
    'INTERNAL_ERROR',
    `The driver answered ${command} in an unexpected shape; the endpoint may not be Appium's UiAutomator2 driver. Check APPIUM_URL.`,
  );
}

const PLAIN_NAME = /^[A-Za-z0-9._$]{1,256}$/;

/** A package or activity name as the driver read it, or null (`null`, empty, or anything else). */
function plainName(value: unknown): string | null {
  const parsed = text.safeParse(value);
  return parsed.success && PLAIN_NAME.test(parsed.data) ? parsed.data : null;
}

/** `.MainActivity` of `com.app` is `com.app.MainActivity`, as dumpsys spells it for the adb gateway. */
function qualified(pkg: string | null, activity: string | null): string | null {
  if (activity === null) return null;
  return activity.startsWith('.') && pkg !== null ? `${pkg}${activity}` : activity;
}
