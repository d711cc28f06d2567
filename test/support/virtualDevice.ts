/**
 * The real VirtualDevice on the wire, attached to a private adb server, for integration
 * and end-to-end suites:
 *
 *   const vd = await startVirtualDeviceForTest();            // default scenario, own adb server
 *   await vd.adb.adb(['-s', vd.serial, 'shell', 'getprop', 'ro.build.version.sdk']);
 *   vd.device.logEntries();                                   // what the device saw
 *   await vd.stop();                                          // adb disconnect, transport, adb server
 *
 * Pass `adb` to share one private adb server between several devices (then you stop it).
 */
import type { ScenarioSpec } from '../../packages/virtual-device/src/scenario/model.js';
import { VirtualDevice, type StaticScreenOptions } from '../../packages/virtual-device/src/device/index.js';
import { startAdbServer, type PrivateAdbServer } from './adbServer.js';
import { attachDeviceToAdb } from './deviceOnAdb.js';

export interface VirtualDeviceForTestOptions {
  /** A scenario object (used as given: no helper packages are added). */
  readonly scenario?: ScenarioSpec;
  /** A scenario JSON file (VirtualDevice.fromScenarioFile). */
  readonly scenarioFile?: string;
  /** A uiautomator dump or Appium page source shown as one static screen. */
  readonly screenXml?: string;
  /** A device you built yourself; the other source options are then ignored. */
  readonly device?: VirtualDevice;
  /** Options for the factories (clock, start-up delays, legacyPty, connectionState, onLog…). */
  readonly deviceOptions?: StaticScreenOptions;
  /** A private adb server to attach to; by default one is started and stopped with the device. */
  readonly adb?: PrivateAdbServer;
}

export interface VirtualDeviceForTest {
  readonly device: VirtualDevice;
  /** adb serial, `127.0.0.1:<port>`. */
  readonly serial: string;
  /** The transport's TCP port. */
  readonly port: number;
  /** The private adb server the device is attached to (its `.port` is Appium's `appium:adbPort`). */
  readonly adb: PrivateAdbServer;
  /** Drops and re-accepts the adb server's connection (it sees the device go away). */
  dropConnections(): void;
  /** `adb disconnect`, closes the transport, and stops the adb server if this helper started it. */
  stop(): Promise<void>;
}

function buildDevice(options: VirtualDeviceForTestOptions): VirtualDevice {
  if (options.device) return options.device;
  const deviceOptions = options.deviceOptions ?? {};
  if (options.screenXml !== undefined) return VirtualDevice.withStaticScreen(options.screenXml, deviceOptions);
  if (options.scenarioFile !== undefined) return VirtualDevice.fromScenarioFile(options.scenarioFile, deviceOptions);
  if (options.scenario !== undefined) return new VirtualDevice(options.scenario, deviceOptions);
  return VirtualDevice.withDefaultScenario(deviceOptions);
}

export async function startVirtualDeviceForTest(
  options: VirtualDeviceForTestOptions = {},
): Promise<VirtualDeviceForTest> {
  const device = buildDevice(options);
  const ownsAdb = options.adb === undefined;
  const adb = options.adb ?? (await startAdbServer());
  let attached: Awaited<ReturnType<typeof attachDeviceToAdb>>;
  try {
    attached = await attachDeviceToAdb(device, adb);
  } catch (error) {
    if (ownsAdb) await adb.stop();
    throw error;
  }
  return {
    device,
    serial: attached.serial,
    port: attached.port,
    adb,
    dropConnections: () => attached.transport.dropConnections(),
    stop: async () => {
      await attached.stop();
      if (ownsAdb) await adb.stop();
    },
  };
}
