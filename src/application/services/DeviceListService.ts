import { HarnessError } from '../../domain/errors.js';
import { serialIdentity, type DeviceFacts } from '../../domain/devices/identity.js';
import { isAllowedSerial } from '../../domain/guards.js';
import type { DeviceDirectory } from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

export interface DeviceListPolicy {
  /** ANDROID_UDID when set (`configured` marks it), else null. */
  readonly udid: string | null;
  readonly allowSerials: readonly string[];
}

/**
 * device_list (toolset `device`): every device the adb server sees, each with its state, whether
 * the device guard allows it, its model, its Android version (both asked only of allowed devices in
 * state `device`: a refused device is never contacted) and the harness process holding it.
 * The model is `ro.product.model` as emulator_get_status reads it ("Virtual Pixel 7"); adb's listing
 * writes it with every space made `_` ("Virtual_Pixel_7"), so it is the fallback for a device not asked.
 * Takes no gate: it reads nothing of the configured device's screen.
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
        let facts: DeviceFacts | null = null;
        if (allowed && device.state === 'device') {
          facts = await this.ceilings
            .action('reading the device properties', this.directory.facts(device.serial))
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
          avd_name: facts?.identity.avdName ?? null,
          android_version: facts?.androidVersion ?? null,
          model: facts?.model ?? device.model,
          // The lock is the device's, whichever serial took it (one device can be on adb under two serials).
          held_by: this.directory.holderOf((facts?.identity ?? serialIdentity(device.serial)).key),
        };
      }),
    );
    return { data: { devices, count: devices.length } };
  }

  private allows(serial: string): boolean {
    return isAllowedSerial(serial, this.policy.allowSerials);
  }
}
