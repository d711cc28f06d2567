/**
 * Shared helpers for integration and end-to-end suites that drive the real adb and Appium.
 *
 * - startAdbServer(): a private adb server per test file (never the shared 5037), killed by pid.
 * - describeWithAdb(): skips without adb in development, fails in CI.
 * - startVirtualDeviceForTest(): the VirtualDevice on a free port, `adb connect`ed and ready.
 * - attachDeviceToAdb(): the same for any DeviceServices (a test's own fake).
 * - startAppium({ adbPort }): a real Appium 3 with the UiAutomator2 driver on loopback.
 * - openDeviceService(): open one device service through the adb server without the adb binary.
 * - startGrid({ relays }): a real Selenium Grid 4 hub with one relay node per Appium (grid.ts).
 * - freePort(), waitForDeviceState(), listDevices(), connectDevice(), disconnectDevice().
 */
export { connectDevice, disconnectDevice, listDevices, waitForDeviceState } from './adbDevices.js';
export { openDeviceService, type DeviceServiceReply } from './adbHostClient.js';
export {
  describeWithAdb,
  locateAdb,
  runAdb,
  startAdbServer,
  type AdbResult,
  type AdbRunOptions,
  type PrivateAdbServer,
  type StartAdbServerOptions,
} from './adbServer.js';
export { REPO_ROOT, androidHomeForAppium, startAppium, type RunningAppium, type StartAppiumOptions } from './appium.js';
export { attachDeviceToAdb, type AttachedDevice } from './deviceOnAdb.js';
export { duplexPair } from './duplexPair.js';
export {
  describeWithGrid,
  gridUnavailableReason,
  listeningAddresses,
  relayNodeToml,
  startGrid,
  stillAlive,
  type GridRelay,
  type RunningGrid,
  type RunningGridNode,
  type StartGridOptions,
} from './grid.js';
export { freePort, waitForPort } from './ports.js';
export { sleep, stopChild, trackChild } from './processes.js';
export {
  startVirtualDeviceForTest,
  type VirtualDeviceForTest,
  type VirtualDeviceForTestOptions,
} from './virtualDevice.js';
