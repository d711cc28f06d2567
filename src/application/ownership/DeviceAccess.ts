import { HarnessError } from '../../domain/errors.js';
import { guardCall, type Reach } from '../../domain/guards.js';
import type { DeviceGateway } from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';
import type { DeviceGate } from './DeviceGate.js';
import type { OperationContext } from '../OperationRunner.js';
import type { WarmSession } from './WarmSession.js';

/** The read-only adb reads an observer may make beside another owner (DeviceAccess.beside). */
export type DeviceReads = Pick<
  DeviceGateway,
  'getState' | 'getAndroidVersion' | 'getModel' | 'getWindowState' | 'getWakefulness'
>;

/**
 * What ends this process's sessions on a device that went away (wired by the container: the UI
 * session, the kept session, and the device lock their Appium sessions hold).
 */
export interface VanishedDeviceHandler {
  /** Whether any Appium session of this process lives on the device (only then is adb asked). */
  hasSession(): boolean;
  /** Ends them now and gives the device back; true when a UI session was open. */
  end(): boolean;
}

/** A call's failure that may mean the device itself is gone: adb's, or the driver's (the UiAutomator2 server unreachable). */
const TRANSPORT_FAILURES: ReadonlySet<string> = new Set(['EMULATOR_UNAVAILABLE', 'APPIUM_UNAVAILABLE']);

/** What the device and Appium guards look at before a call may own the device. */
export interface AccessPolicy {
  readonly udid: string;
  readonly allowSerials: readonly string[];
  readonly appiumUrl: string;
  /**
   * Remote mode: https endpoints pass the Appium guard, and reads and launches go
   * through the driver's session, so nothing has to close the warm session before them (there is
   * no `uiautomator dump` competing for UiAutomation).
   */
  readonly remote?: boolean;
}

/**
 * The way into the device for every use case: the guards first (nothing is sent
 * anywhere when they refuse), then the gate, then a device gateway whose every call
 * is bounded by the action ceiling.
 */
export class DeviceAccess {
  private readonly boundedDevice: DeviceGateway;
  private vanished: VanishedDeviceHandler | null = null;

  constructor(
    private readonly gate: DeviceGate,
    ceilings: Ceilings,
    device: DeviceGateway,
    private readonly policy: AccessPolicy,
    warm: WarmSession,
  ) {
    this.boundedDevice = policy.remote
      ? ceilings.device(device)
      : beforeDumpOrNavigation(ceilings.device(device), warm);
  }

  get udid(): string {
    return this.policy.udid;
  }

  /** Set once by the container, after the sessions it ends exist. */
  whenVanished(handler: VanishedDeviceHandler): void {
    this.vanished = handler;
  }

  /**
   * Runs `body` as the device's only owner, after the guards that `reach` needs (guardCall):
   * 'adb' for tools that only read through adb, 'appium' for tools that read through Appium too,
   * 'act' for every tool that changes the screen, even through adb (`am start`).
   */
  async exclusive<T>(context: OperationContext, reach: Reach, body: (device: DeviceGateway) => Promise<T>): Promise<T> {
    guardCall(this.policy.udid, reach, { ...this.policy, remote: this.policy.remote ?? false });
    return this.gate.run(context.tool, context.operationId, async () => {
      try {
        return await body(this.boundedDevice);
      } catch (error) {
        throw (await this.goneUnder(error, context.tool)) ?? error;
      }
    });
  }

  /**
   * After a call failed the way a vanished device fails it (adb: device not found or offline; the
   * UiAutomator2 server unreachable), while a session of ours lives on it: adb is asked whether the
   * device is there. When adb agrees it is not, the sessions end now and the device is given back
   * (a restarted emulator, or another process, can take it at once, not at the lease's end), and
   * the answer says so, without advising a new UI session while there is no device to open it on.
   * Null when the device is there (the failure stands as it is).
   */
  private async goneUnder(error: unknown, tool: string): Promise<HarnessError | null> {
    const handler = this.vanished;
    if (handler === null || this.policy.remote) return null;
    if (!(error instanceof HarnessError) || !TRANSPORT_FAILURES.has(error.code) || !handler.hasSession()) return null;
    let why: string;
    try {
      await this.boundedDevice.getState();
      return null;
    } catch (probe) {
      if (!(probe instanceof HarnessError) || probe.code !== 'EMULATOR_UNAVAILABLE') return null;
      why = probe.message;
    }
    const hadUiSession = handler.end();
    const next = hadUiSession
      ? 'Its UI session ended with it and the device was given back. Once the device is back (emulator_get_status or device_list shows it in state `device`), open a new UI session with ui_session_open.'
      : 'Its Appium session ended with it and the device was given back. Once the device is back (emulator_get_status or device_list shows it in state `device`), retry.';
    return new HarnessError(
      'EMULATOR_UNAVAILABLE',
      `The device ${this.policy.udid} went away during ${tool} (adb: ${why}) ${next}`,
      { cause: error },
    );
  }

  /**
   * Runs `body` beside whoever owns the device, after the same guards, without the gate or the
   * cross-process lock: for reads that touch neither the screen nor UiAutomation (getprop, `dumpsys`,
   * `get-state`), which cannot disturb an owner mid-action (emulator_get_status). Only the reads
   * named in DeviceReads are offered. In remote mode every read goes through the driver's session,
   * which has one owner: there this is `exclusive`.
   */
  async beside<T>(context: OperationContext, reach: Reach, body: (device: DeviceReads) => Promise<T>): Promise<T> {
    if (this.policy.remote) return this.exclusive(context, reach, body);
    guardCall(this.policy.udid, reach, { ...this.policy, remote: false });
    return body(this.boundedDevice);
  }
}

/**
 * The device gateway with the warm session (WarmSession) closed before anything that
 * needs `uiautomator dump` or navigates through adb (`am start`): Android allows one UiAutomation
 * client, so a dump would break the kept UiAutomator2 server, and that server would break the
 * dump. Enforced here, at the calls themselves, so every use case that dumps is covered
 * (ui_get_tree reads through the warm session instead, UiSessions.borrow). Nothing to close:
 * no wait at all.
 */
function beforeDumpOrNavigation(device: DeviceGateway, warm: WarmSession): DeviceGateway {
  const first = async <T>(work: () => Promise<T>): Promise<T> => {
    await warm.release('dump');
    return work();
  };
  return {
    getState: () => device.getState(),
    getAndroidVersion: () => device.getAndroidVersion(),
    getModel: () => device.getModel(),
    listPackages: () => device.listPackages(),
    getDensity: () => device.getDensity(),
    getWindowState: () => device.getWindowState(),
    getWakefulness: () => device.getWakefulness(),
    screencap: () => device.screencap(),
    resolveLauncherActivity: (pkg) => device.resolveLauncherActivity(pkg),
    dumpUi: () => first(() => device.dumpUi()),
    startActivity: (component) => first(() => device.startActivity(component)),
    startApplicationSettings: () => first(() => device.startApplicationSettings()),
    openLink: (uri, pkg) => first(() => device.openLink(uri, pkg)),
    // Stopping or clearing an app changes what is on screen as a navigation does.
    forceStop: (pkg) => first(() => device.forceStop(pkg)),
    clearData: (pkg) => first(() => device.clearData(pkg)),
    // Replacing a package kills its processes: the kept UiAutomator2 server's own among them.
    installApk: (hostPath) => first(() => device.installApk(hostPath)),
    // Reading logcat touches neither the screen nor UiAutomation.
    listProcesses: () => device.listProcesses(),
    readAppLog: (pid, lines) => device.readAppLog(pid, lines),
    readCrashLog: () => device.readCrashLog(),
    readAnrEvents: () => device.readAnrEvents(),
  };
}
