/**
 * android-mcp-virtual-device: a virtual Android device that the real adb and Appium (UiAutomator2)
 * accept. What a test or a tool starts it with: the device, its ADB transport, the scenario model.
 * Everything else under src/ is internal.
 */
export * from './device/index.js';
export { startAdbTransport, type AdbTransport, type AdbTransportOptions } from './adb/index.js';
export type { DeviceLogEntry, DeviceServices, ShellIo } from './contracts.js';
export type { ScenarioSpec } from './scenario/model.js';
export { runVirtualDeviceCli, type VirtualDeviceCliHost } from './cli.js';
