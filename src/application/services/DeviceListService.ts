import { HarnessError } from '../../domain/errors.js';
import { checkSerial } from '../../domain/guards.js';
import type { DeviceDirectory } from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

export interface DeviceListPolicy {
  readonly udid: string;
  readonly allowSerials: readonly string[];
}

/**
 * device_list (toolset `device`): every device the adb server sees, each with its state, whether
 * the device guard allows it, its model (from adb's listing), its Android version (asked only of
 * allowed devices in state `device`: a refused device is never contacted) and the harness process
 * holding it. Takes no gate: it reads nothing of the configured device's screen.
 */
export class DeviceListService {
  constructor(
    private readonly directory: DeviceDirectory,
    private readonly ceilings: Ceilings,
    private readonly policy: DeviceListPolicy,
  ) {}

  async list(_context: OperationContext): Promise<Outcome> {
    const listed = await this.ceilings.action('listing the devices', this.directory.list());
    const devices = await Promise.all(
      listed.map(async (device) => {
        const allowed = this.allows(device.serial);
        let androidVersion: string | null = null;
        if (allowed && device.state === 'device') {
          androidVersion = await this.ceilings
            .action('reading the Android version', this.directory.androidVersion(device.serial))
            .catch((error: unknown) => {
              if (error instanceof HarnessError) return null;
              throw error;
            });
        }
        return {
          serial: device.serial,
          state: device.state,
          allowed,
          configured: device.serial === this.policy.udid,
          android_version: androidVersion || null,
          model: device.model,
          held_by: this.directory.holderOf(device.serial),
        };
      }),
    );
    return { data: { devices, count: devices.length } };
  }

  private allows(serial: string): boolean {
    try {
      checkSerial(serial, this.policy.allowSerials);
      return true;
    } catch {
      return false;
    }
  }
}
