import type { AutomationGateway } from '../../domain/ports.js';
import type { Ceilings } from '../Ceilings.js';
import type { DeviceAccess } from '../DeviceAccess.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { together } from '../together.js';

/** emulator_get_status: who is there, through read-only adb and Appium's /status. */
export class StatusService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly automation: AutomationGateway,
    private readonly ceilings: Ceilings,
  ) {}

  status(context: OperationContext): Promise<Outcome> {
    return this.access.exclusive(context, 'appium', async (device) => {
      // First whether the device is there and booted (a clear remedy when not), then the rest at once.
      await device.getState();
      const [android_version, model, appium] = await together(
        device.getAndroidVersion(),
        device.getModel(),
        this.ceilings.action('asking Appium for its status', this.automation.status()),
      );
      return { data: { udid: this.access.udid, android_version, model, appium_version: appium.version } };
    });
  }
}
