import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import type { AutomationGateway, DeviceGateway } from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';
import type { DeviceAccess } from '../ownership/DeviceAccess.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { together } from '../time/together.js';
import { readScreenCondition } from '../screen/screenLock.js';
import { HarnessError } from '../../domain/errors.js';

/**
 * `appium_endpoint` of emulator_get_status: what answered at APPIUM_URL. Behind a Selenium Grid
 * `appium_version` is usually null (the Grid does not relay Appium's /status), so the Grid's
 * own readiness and node counts are what tells the model whether an action can start.
 */
export function endpointData(status: AutomationEndpointStatus): Record<string, unknown> {
  if (status.kind === 'appium') return { kind: 'appium', ready: status.ready };
  return {
    kind: 'selenium-grid',
    ready: status.ready,
    message: status.message,
    grid_version: status.gridVersion,
    nodes: status.nodes,
    sessions: status.sessions,
  };
}

/** emulator_get_status: who is there, through read-only adb and the automation endpoint's /status. */
export class StatusService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly automation: AutomationGateway,
    private readonly ceilings: Ceilings,
  ) {}

  /**
   * Issue 12: `{awake, locked}`, or null when the device could not say (its `dumpsys` failed): the
   * status is the diagnostic call, so a screen it cannot read does not make it fail.
   */
  private async screen(device: DeviceGateway): Promise<{ awake: boolean; locked: boolean } | null> {
    try {
      const { condition } = await readScreenCondition(device);
      return { awake: condition.awake, locked: condition.locked };
    } catch (error) {
      if (error instanceof HarnessError && error.code !== 'OPERATION_TIMEOUT') return null;
      throw error;
    }
  }

  status(context: OperationContext): Promise<Outcome> {
    return this.access.exclusive(context, 'appium', async (device) => {
      // First whether the device is there and booted (a clear remedy when not), then the rest at once.
      await device.getState();
      const [android_version, model, screen, endpoint] = await together(
        device.getAndroidVersion(),
        device.getModel(),
        this.screen(device),
        this.ceilings.action('asking Appium for its status', this.automation.status()),
      );
      return {
        data: {
          udid: this.access.udid,
          android_version,
          model,
          // Issue 12: whether launches and actions can reach an app (DEVICE_LOCKED otherwise).
          screen,
          appium_version: endpoint.version,
          appium_endpoint: endpointData(endpoint),
        },
      };
    });
  }
}
