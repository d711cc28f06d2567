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

/** What the device and Appium guards look at before a call may own the device. */
export interface AccessPolicy {
  readonly udid: string;
  readonly allowSerials: readonly string[];
  readonly appiumUrl: string;
  /**
   * Remote mode: https endpoints pass the Appium guard, and reads and launches go
   * through the driver's session, so nothing has to close the kept session before them (there is
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

  /**
   * Runs `body` as the device's only owner, after the guards that `reach` needs (guardCall):
   * 'adb' for tools that only read through adb, 'appium' for tools that read through Appium too,
   * 'act' for every tool that changes the screen, even through adb (`am start`).
   */
  async exclusive<T>(context: OperationContext, reach: Reach, body: (device: DeviceGateway) => Promise<T>): Promise<T> {
    guardCall(this.policy.udid, reach, { ...this.policy, remote: this.policy.remote ?? false });
    return this.gate.run(context.tool, context.operationId, () => body(this.boundedDevice));
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
 * The device gateway with the kept per-action session (WarmSession) closed before anything that
 * needs `uiautomator dump` or navigates through adb (`am start`): Android allows one UiAutomation
 * client, so a dump would break the kept UiAutomator2 server, and that server would break the
 * dump. Enforced here, at the calls themselves, so every use case that dumps is covered
 * (ui_get_tree reads through the kept session instead, UiSessions.borrow). Nothing to close:
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
