/**
 * Puts any DeviceServices (the real VirtualDevice or a test's own fake) on the wire and
 * attaches it to a private adb server: transport on a free port, `adb connect`, wait for
 * `device`; stop() disconnects and closes the transport.
 */
import { startAdbTransport, type AdbTransport } from '../../packages/virtual-device/src/adb/index.js';
import type { DeviceServices } from '../../packages/virtual-device/src/contracts.js';
import { connectDevice, disconnectDevice } from './adbDevices.js';
import type { PrivateAdbServer } from './adbServer.js';
import { freePort } from './ports.js';

export interface AttachedDevice {
  /** The adb serial, `127.0.0.1:<port>`. */
  readonly serial: string;
  /** The transport's port. */
  readonly port: number;
  readonly transport: AdbTransport;
  /** `adb disconnect`, then closes the transport. Idempotent. */
  stop(): Promise<void>;
}

export async function attachDeviceToAdb(services: DeviceServices, adb: PrivateAdbServer): Promise<AttachedDevice> {
  const transport = await startAdbTransport({ port: await freePort(), services });
  let serial: string;
  try {
    serial = await connectDevice(adb, transport.port);
  } catch (error) {
    await transport.close();
    throw error;
  }
  let stopped = false;
  return {
    serial,
    port: transport.port,
    transport,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await disconnectDevice(adb, serial);
      await transport.close();
    },
  };
}
