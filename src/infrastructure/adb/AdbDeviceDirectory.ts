import { factsFromProps, type DeviceFacts } from '../../domain/devices/identity.js';
import type { DeviceDirectory, DeviceHolder, ListedDevice, Logger } from '../../domain/ports.js';
import { FileDeviceLock, systemProcessProbe } from '../lock/FileDeviceLock.js';
import { ADB_COMMANDS } from './AdbDeviceGateway.js';
import type { AdbRunner } from './AdbRunner.js';
import { parsePropertyListing } from './parsers.js';

/** What a serial from adb's own output must look like before it goes into an argv. */
const SERIAL_PATTERN = /^[A-Za-z0-9._:[\]-]{1,128}$/;

export function isPlainSerial(serial: string): boolean {
  return SERIAL_PATTERN.test(serial) && !serial.startsWith('-');
}

/**
 * `adb devices -l` as adb prints it (adb's `adb_query` / transport listing): a header line,
 * then `serial<spaces>state[ key:value…]`; a state may hold spaces (`no permissions (…)`).
 * Lines whose serial is not plain are left out: they never reach an argv.
 */
export function parseDevicesList(output: string): ListedDevice[] {
  const devices: ListedDevice[] = [];
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('List of devices') || line.startsWith('*')) continue;
    const match = /^(\S+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, serial = '', rest = ''] = match;
    if (!isPlainSerial(serial)) continue;
    const state = rest.startsWith('no permissions') ? 'no permissions' : (rest.split(/\s+/)[0] ?? '');
    const model = /(?:^|\s)model:(\S+)/.exec(rest)?.[1] ?? null;
    devices.push({ serial, state, model });
  }
  return devices;
}

export interface AdbDeviceDirectoryOptions {
  /** The runner of the configured device (its `-s` does not matter to `devices -l`). */
  readonly runner: AdbRunner;
  /** A runner for another serial (already checked plain and allowed by the caller). */
  readonly runnerFor: (serial: string) => AdbRunner;
  /** The lock directory shared by harness processes, or null when this process uses no lock. */
  readonly lockDirectory: string | null;
  readonly logger: Logger;
}

export class AdbDeviceDirectory implements DeviceDirectory {
  constructor(private readonly options: AdbDeviceDirectoryOptions) {}

  async list(): Promise<readonly ListedDevice[]> {
    const result = await this.options.runner.run(ADB_COMMANDS.listDevices);
    return parseDevicesList(result.stdout.toString('utf8'));
  }

  async facts(serial: string): Promise<DeviceFacts> {
    if (!isPlainSerial(serial)) throw new Error('not a plain serial');
    const result = await this.options.runnerFor(serial).run(ADB_COMMANDS.allProperties);
    return factsFromProps(serial, parsePropertyListing(result.stdout.toString('utf8')));
  }

  holderOf(identityKey: string): DeviceHolder | null {
    if (this.options.lockDirectory === null) return null;
    const lock = new FileDeviceLock({
      directory: this.options.lockDirectory,
      serial: identityKey,
      logger: this.options.logger,
    });
    const record = lock.peek();
    // A record whose process is gone is a stale lock: nobody holds the device.
    if (!record || !systemProcessProbe.isAlive(record.pid)) return null;
    return {
      pid: record.pid,
      tool: record.activity.tool,
      kind: record.activity.kind === 'session' ? 'session' : 'operation',
      since: record.activity.since,
      until: record.activity.until ?? null,
    };
  }
}
