/** The device side of the ADB transport. Everything else in this folder is internal. */
export { startAdbTransport, type AdbTransport, type AdbTransportOptions } from './transport.js';
export { deviceBanner, deviceFeatures } from './connection.js';
