import { HarnessError } from '../../domain/errors.js';
import { SecureScreenError } from '../../domain/evidence/secureScreen.js';
import type { Clock, DeviceGateway, InstallOutcome, LinkStart, Logger } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import type { LinkUri } from '../../domain/links/linkUri.js';
import type { Wakefulness, WindowState } from '../../domain/tree/screen.js';
import type { AdbResult, AdbRunner } from './AdbRunner.js';
import { ADB_COMMANDS, type Argv } from './adbCommands.js';
import { extractPng, trimDump } from './adbOutput.js';
import { parseSecureWindow } from './secureWindow.js';
import { encodePng, type EncodeOptions } from '../png/boxPreview.js';
import { readRawScreencap } from '../png/rawScreencap.js';
import {
  findAmStartError,
  parseActiveDisplayId,
  parseDensity,
  parseGetprop,
  parsePackageList,
  parseProcessList,
  parseResolveActivity,
  parseWakefulness,
  type ProcessEntry,
  parseWindowState,
} from './parsers.js';

// The closed list and the output helpers live beside this adapter; their importers reach them here too.
export { ADB_COMMANDS, APP_LOG_READ_MAX, isPlainHostApkPath } from './adbCommands.js';
export { extractPng, trimDump } from './adbOutput.js';

const NULL_ROOT = /null root node returned by UiTestAutomationBridge/i;
const IDLE_STATE = /could not get idle state/i;
const ALREADY_REGISTERED = /UiAutomationService[\s\S]*already registered/i;
/** toybox `pidof`: the pids on one line, nothing (exit 1) when no process has that name. */
const PIDS = /^\s*(\d+)(?:\s+\d+)*\s*$/;
/** The same remedy for both ways a dump meets another UiAutomation client (refused, or killed). */
const OTHER_CLIENT_REMEDY =
  'most likely a running UiAutomator2/Appium session or another testing tool. Pass the session_id of your open UI session to ui_get_tree, or close the other session, then retry.';
/** AOSP screencap.cpp, on stderr (merged into exec-out's stdout) when it chose a display itself. */
const MULTIPLE_DISPLAYS = /Multiple displays were found, but no display id was specified/;
/**
 * Evidence PNGs: no filter and zlib level 1 encode a 1080×2400 frame in about 40 ms here, against
 * 65–180 ms with Paeth, for files 5–20 % larger (measured on the shared real screenshots).
 */
const EVIDENCE_ENCODING: EncodeOptions = { filter: 'none', level: 1 };

export interface AdbDeviceGatewayOptions {
  /** Extra attempts after a transient `null root node` or empty dump (default 2). */
  readonly dumpRetries?: number;
  readonly dumpRetryDelayMs?: number;
}

/** Read-only ADB through the closed list; the two launches are the only commands that change anything. */
export class AdbDeviceGateway implements DeviceGateway {
  private readonly dumpRetries: number;
  private readonly dumpRetryDelayMs: number;

  constructor(
    private readonly runner: AdbRunner,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: AdbDeviceGatewayOptions = {},
  ) {
    this.dumpRetries = Math.max(0, Math.floor(options.dumpRetries ?? 2));
    this.dumpRetryDelayMs = Math.max(0, options.dumpRetryDelayMs ?? 500);
  }

  async getState(): Promise<string> {
    // Both reads at once (two adb processes overlap); the state is judged first, as its remedy is the one that helps.
    const [stateRead, bootRead] = await Promise.allSettled([
      this.runner.run(ADB_COMMANDS.getState),
      this.runner.run(ADB_COMMANDS.bootCompleted),
    ]);
    if (stateRead.status === 'rejected') throw stateRead.reason;
    const result = stateRead.value;
    const state = text(result).trim();
    if (result.exitCode !== 0 || state !== 'device') {
      throw new HarnessError('EMULATOR_UNAVAILABLE', stateRemedy(state || result.stderr.trim(), this.runner.serial));
    }
    if (bootRead.status === 'rejected') throw bootRead.reason;
    const booted = parseGetprop(text(bootRead.value));
    if (booted !== '1') {
      throw new HarnessError(
        'EMULATOR_UNAVAILABLE',
        `The device ${this.runner.serial} is still booting (sys.boot_completed is not 1). Wait until the home screen is shown, then retry.`,
      );
    }
    return 'device';
  }

  async getAndroidVersion(): Promise<string> {
    return this.readProp(ADB_COMMANDS.androidVersion, 'Android version');
  }

  async getModel(): Promise<string> {
    return this.readProp(ADB_COMMANDS.model, 'model');
  }

  async listPackages(): Promise<string[]> {
    const result = await this.runner.run(ADB_COMMANDS.listPackages);
    this.requireSuccess(result, 'pm list packages');
    return parsePackageList(text(result));
  }

  async getDensity(): Promise<number> {
    const result = await this.runner.run(ADB_COMMANDS.density);
    this.requireSuccess(result, 'wm density');
    const density = parseDensity(text(result));
    if (density === null) {
      throw new HarnessError(
        'EMULATOR_UNAVAILABLE',
        'The device did not report its screen density (`wm density`). Retry once the device has finished booting.',
      );
    }
    return density;
  }

  async getWindowState(): Promise<WindowState> {
    const result = await this.runner.run(ADB_COMMANDS.dumpsysWindow);
    this.requireSuccess(result, 'dumpsys window');
    return parseWindowState(text(result));
  }

  async getWakefulness(): Promise<Wakefulness | null> {
    const result = await this.runner.run(ADB_COMMANDS.dumpsysPower);
    this.requireSuccess(result, 'dumpsys power');
    return parseWakefulness(text(result));
  }

  async dumpUi(): Promise<string> {
    let serverChecked = false;
    for (let attempt = 0; ; attempt++) {
      const result = await this.runner.run(ADB_COMMANDS.dumpUi);
      const output = text(result);
      const xml = trimDump(output);
      if (xml !== null) return xml;

      const all = `${output}\n${result.stderr}`;
      if (ALREADY_REGISTERED.test(all)) {
        throw new HarnessError(
          'UI_TREE_UNAVAILABLE',
          `The device refused the UI dump because another automation client holds UiAutomation (UiAutomationService already registered), ${OTHER_CLIENT_REMEDY}`,
        );
      }
      // Some devices kill a dump that meets a running UiAutomator2 server (exit 137, nothing
      // printed; exec-out does not even carry the code): retrying it would only say "still starting".
      if (all.trim() === '' && !serverChecked) {
        serverChecked = true;
        const pid = await this.uia2ServerPid();
        if (pid !== null) {
          this.logger.warn('uiautomator dump printed nothing while the UiAutomator2 server runs', {
            exitCode: result.exitCode,
            pid,
          });
          throw new HarnessError(
            'UI_TREE_UNAVAILABLE',
            `The UI dump ended without output${result.exitCode === 137 ? ' (killed, exit 137)' : ''} while the UiAutomator2 server runs on the device (io.appium.uiautomator2.server, pid ${pid}): it holds UiAutomation, and Android lets one client register. That is ${OTHER_CLIENT_REMEDY}`,
          );
        }
      }
      if (IDLE_STATE.test(all)) {
        throw new HarnessError(
          'UI_TREE_UNAVAILABLE',
          'The screen never became idle, so uiautomator could not dump it (a playing video, an animation or a live wallpaper keeps it busy). Pause the animation or video, or read the tree through a UI session: open one with ui_session_open and pass its session_id to ui_get_tree.',
        );
      }
      const transient = NULL_ROOT.test(all) || output.trim() === '';
      if (!transient || attempt >= this.dumpRetries) {
        this.logger.warn('uiautomator dump gave no hierarchy', {
          attempt,
          exitCode: result.exitCode,
          output: all.slice(0, 300),
        });
        throw new HarnessError(
          'UI_TREE_UNAVAILABLE',
          transient
            ? `The device returned no UI hierarchy after ${attempt + 1} attempts (the app may still be starting). Wait a moment and call ui_get_tree again.`
            : 'The device returned no UI hierarchy. Call ui_get_tree again; if it keeps failing, check the device screen.',
        );
      }
      this.logger.debug('uiautomator dump transient failure; retrying', { attempt });
      await this.clock.sleep(this.dumpRetryDelayMs);
    }
  }

  /** The pid of a running UiAutomator2 server, or null when none runs or it cannot be told. */
  private async uia2ServerPid(): Promise<string | null> {
    try {
      const result = await this.runner.run(ADB_COMMANDS.uia2ServerPid);
      return PIDS.exec(text(result))?.[1] ?? null;
    } catch (error) {
      this.logger.debug('pidof io.appium.uiautomator2.server failed; treating the empty dump as transient', {
        error: String(error),
      });
      return null;
    }
  }

  /**
   * The unencoded frame (`screencap`), encoded to PNG here: the device's own PNG encoding (`-p`) is
   * most of a capture's time on a real device (png/rawScreencap.ts). When the device warns that it
   * has several displays and picked one by itself (a foldable's cover panel may be first, and off),
   * capture again with `-d` and the physical id of the display that is on. A frame the raw reader
   * does not know is captured again as the device's PNG. Text before the image never reaches the file.
   */
  async screencap(): Promise<Buffer> {
    const result = await this.runner.run(ADB_COMMANDS.screencapRaw);
    if (MULTIPLE_DISPLAYS.test(`${result.stdout.subarray(0, 4096).toString('latin1')}\n${result.stderr}`)) {
      const chosen = await this.captureActiveDisplay();
      if (chosen !== null) return chosen;
    }
    const frame = readRawScreencap(result.stdout);
    if (frame !== null) return encodePng(frame, EVIDENCE_ENCODING);
    // Nothing, or not a frame: a secure window refuses every capture; anything else gets the PNG path.
    await this.refuseIfSecure();
    this.logger.debug('screencap: no raw frame; asking for the device PNG', {
      bytes: result.stdout.length,
      head: result.stdout.subarray(0, 16).toString('hex'),
    });
    const png = await this.runner.run(ADB_COMMANDS.screencap);
    return this.requirePng(png, extractPng(png.stdout));
  }

  /**
   * A capture that gave no PNG may have met a secure window: SurfaceFlinger refuses every capture
   * while one is visible (PERMISSION_DENIED) and screencap exits 1 with no image. Only then
   * is `dumpsys window` read, to tell that apart from a broken graphics stack.
   */
  private async refuseIfSecure(): Promise<void> {
    // exec-out has no exit status and merges stderr into stdout, so the failure is only "no PNG".
    let secure: ReturnType<typeof parseSecureWindow> = null;
    try {
      const windows = await this.runner.run(ADB_COMMANDS.dumpsysWindow);
      secure = windows.exitCode === 0 ? parseSecureWindow(text(windows)) : null;
    } catch (error) {
      this.logger.warn('screencap: reading the windows after a failed capture failed', { error: String(error) });
    }
    if (secure === null) return;
    this.logger.info('screencap refused: a secure window is on screen', { window: secure.component });
    throw new SecureScreenError(secure.component);
  }

  /** The capture of the display that is ON, or null when it cannot be told (the default capture is then kept). */
  private async captureActiveDisplay(): Promise<Buffer | null> {
    try {
      const displays = await this.runner.run(ADB_COMMANDS.displays);
      const displayId = displays.exitCode === 0 ? parseActiveDisplayId(text(displays)) : null;
      if (displayId === null) {
        this.logger.warn('screencap: several displays but none reported as on; keeping the default capture', {});
        return null;
      }
      const again = await this.runner.run(ADB_COMMANDS.screencapDisplay(displayId));
      const frame = readRawScreencap(again.stdout);
      if (frame !== null) return encodePng(frame, EVIDENCE_ENCODING);
      const png = extractPng((await this.runner.run(ADB_COMMANDS.screencapPngDisplay(displayId))).stdout);
      this.logger.debug('screencap: captured the display that is on', { displayId, ok: png !== null });
      return png;
    } catch (error) {
      this.logger.warn('screencap: choosing the display failed; keeping the default capture', { error: String(error) });
      return null;
    }
  }

  private requirePng(result: AdbResult, png: Buffer | null): Buffer {
    if (png === null) {
      this.logger.warn('screencap returned no PNG', {
        exitCode: result.exitCode,
        bytes: result.stdout.length,
        head: result.stdout.subarray(0, 200).toString('utf8'),
        stderr: result.stderr.slice(0, 200),
      });
      throw new HarnessError(
        'EVIDENCE_WRITE_FAILED',
        'The device did not return a PNG screenshot (screencap -p). Check that the screen is on and the emulator has a working graphics stack (try -gpu swiftshader), then retry.',
      );
    }
    if (png !== result.stdout)
      this.logger.debug('screencap: cut text before the PNG', { bytes: result.stdout.length - png.length });
    return png;
  }

  async resolveLauncherActivity(pkg: PackageName): Promise<string | null> {
    const result = await this.runner.run(ADB_COMMANDS.resolveLauncherActivity(pkg));
    return parseResolveActivity(text(result), pkg);
  }

  async startActivity(component: string): Promise<void> {
    const result = await this.runner.run(ADB_COMMANDS.startActivity(component));
    const error = findAmStartError(`${text(result)}\n${result.stderr}`);
    if (error !== null || result.exitCode !== 0) {
      this.logger.warn('am start failed', { component, exitCode: result.exitCode, error });
      throw new HarnessError(
        'APP_NOT_FOUND',
        `The device could not start ${component}. Check that the app is installed and enabled (app_list_installed), then retry.`,
      );
    }
  }

  async startApplicationSettings(): Promise<void> {
    const result = await this.runner.run(ADB_COMMANDS.startApplicationSettings);
    const error = findAmStartError(`${text(result)}\n${result.stderr}`);
    if (error !== null || result.exitCode !== 0) {
      this.logger.warn('am start APPLICATION_SETTINGS failed', { exitCode: result.exitCode, error });
      throw new HarnessError(
        'SETTINGS_FOREGROUND_FAILED',
        'The device could not open the Settings → Apps screen (android.settings.APPLICATION_SETTINGS). Check that the Settings app is present and the device is unlocked, then retry.',
      );
    }
  }

  async openLink(uri: LinkUri, pkg: PackageName | null): Promise<LinkStart> {
    const result = await this.runner.run(ADB_COMMANDS.openLink(uri, pkg));
    const output = `${text(result)}\n${result.stderr}`;
    // ActivityManagerShellCommand: "Error: Activity not started, unable to resolve Intent { … }".
    if (/unable to resolve Intent/.test(output)) return { kind: 'unresolved' };
    const error = findAmStartError(output);
    if (error !== null || result.exitCode !== 0) {
      this.logger.warn('am start VIEW failed', { exitCode: result.exitCode, error: error?.slice(0, 120) ?? null });
      throw new HarnessError(
        'APP_NOT_FOUND',
        'The device could not open the link (am start refused it). Call ui_get_tree to see the screen, check the link, then retry.',
      );
    }
    const activity = /^Activity: ([A-Za-z0-9_.]+\/[A-Za-z0-9_.$]+)\s*$/m.exec(text(result));
    return { kind: 'started', component: activity?.[1] ?? null };
  }

  async forceStop(pkg: PackageName): Promise<void> {
    this.requireSuccess(await this.runner.run(ADB_COMMANDS.forceStop(pkg)), 'am force-stop');
  }

  async clearData(pkg: PackageName): Promise<boolean> {
    // PackageManagerShellCommand.runClear prints "Success" or "Failed" (exit code 1).
    const result = await this.runner.run(ADB_COMMANDS.clearData(pkg));
    return /^Success/m.test(text(result));
  }

  async installApk(hostPath: string): Promise<InstallOutcome> {
    const result = await this.runner.run(ADB_COMMANDS.install(hostPath));
    // adb prints the device's `Success` on stdout; a refusal goes to stderr after the file name.
    if (result.exitCode === 0 && /^Success/m.test(text(result))) return { ok: true };
    this.logger.warn('adb install refused', { exitCode: result.exitCode, stderr: result.stderr.slice(0, 300) });
    return { ok: false, output: `${text(result)}\n${result.stderr}` };
  }

  async listProcesses(): Promise<ProcessEntry[]> {
    const result = await this.runner.run(ADB_COMMANDS.processes);
    this.requireSuccess(result, 'ps');
    return parseProcessList(text(result));
  }

  async readAppLog(pid: number, lines: number): Promise<string> {
    return this.readLog(ADB_COMMANDS.appLog(pid, lines), 'logcat --pid');
  }

  async readCrashLog(): Promise<string> {
    return this.readLog(ADB_COMMANDS.crashLog, 'logcat -b crash');
  }

  async readAnrEvents(): Promise<string> {
    return this.readLog(ADB_COMMANDS.anrEvents, 'logcat -b events');
  }

  private async readLog(argv: Argv, what: string): Promise<string> {
    const result = await this.runner.run(argv);
    this.requireSuccess(result, what);
    return text(result);
  }

  private async readProp(argv: Argv, what: string): Promise<string> {
    const result = await this.runner.run(argv);
    this.requireSuccess(result, `getprop (${what})`);
    return parseGetprop(text(result));
  }

  private requireSuccess(result: AdbResult, what: string): void {
    if (result.exitCode === 0) return;
    this.logger.warn('adb read failed', { what, exitCode: result.exitCode, stderr: result.stderr.slice(0, 300) });
    throw new HarnessError(
      'EMULATOR_UNAVAILABLE',
      `Reading the device failed (${what}). Check \`adb devices\` and retry.`,
    );
  }
}

function text(result: AdbResult): string {
  return result.stdout.toString('utf8');
}

function stateRemedy(state: string, serial: string): string {
  const s = state.toLowerCase();
  if (s.includes('unauthorized'))
    return `The device ${serial} is unauthorized: accept the "Allow USB debugging" prompt on the device, then retry.`;
  if (s.includes('offline'))
    return `The device ${serial} is offline. Restart adb (\`adb kill-server && adb start-server\`) or the emulator, then retry.`;
  if (s.includes('permission'))
    return `adb has no permission to open ${serial}: fix the udev rules (plugdev group), then retry.`;
  if (s.includes('recovery') || s.includes('bootloader') || s.includes('sideload') || s.includes('rescue')) {
    return `The device ${serial} is in ${s.split(/\s/)[0]} mode, not running Android. Reboot it normally and retry.`;
  }
  return `The device ${serial} is not ready (adb get-state: ${state.slice(0, 60) || 'no answer'}). Start the emulator and wait until \`adb devices\` lists it as "device".`;
}
