import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import { checkAppiumUrl } from '../../domain/guards.js';
import type { AutomationGateway } from '../../domain/ports.js';
import type { DeviceReads } from '../ownership/DeviceAccess.js';
import type { Ceilings } from '../time/Ceilings.js';
import type { DeviceBinding } from '../devices/DeviceBinding.js';
import type { AllowedDevice } from '../devices/DeviceResolver.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
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

/** One entry of `devices`: every device the guard allows, and who holds it. */
function deviceEntry(device: AllowedDevice): Record<string, unknown> {
  return {
    serial: device.serial,
    state: device.state,
    avd_name: device.facts?.identity.avdName ?? null,
    android_version: device.facts?.androidVersion ?? null,
    model: device.facts?.model ?? null,
    held_by: device.heldBy,
  };
}

/**
 * emulator_get_status: who is there, through read-only adb and the automation endpoint's /status.
 * `udid` and its version and model are the device the call names (its session_id), else the
 * default one; `devices` lists every allowed device adb sees. With several online and
 * none named there is no default: `udid` is null and the list says which to name.
 */
export class StatusService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly automation: AutomationGateway,
    private readonly ceilings: Ceilings,
    private readonly appiumUrl: string,
    /** Remote mode: https endpoints pass the Appium guard too. */
    private readonly remote = false,
  ) {}

  /**
   * `{awake, locked}`, or null when the device could not say (its `dumpsys` failed): the
   * status is the diagnostic call, so a screen it cannot read does not make it fail.
   */
  private async screen(device: DeviceReads): Promise<{ awake: boolean; locked: boolean } | null> {
    try {
      const { condition } = await readScreenCondition(device);
      return { awake: condition.awake, locked: condition.locked };
    } catch (error) {
      if (error instanceof HarnessError && error.code !== 'OPERATION_TIMEOUT') return null;
      throw error;
    }
  }

  async status(context: OperationContext, sessionId?: string): Promise<Outcome> {
    const binding = await this.target(sessionId);
    const list = async () => (await this.router.resolver.allowed()).map(deviceEntry);
    if (binding === null) {
      checkAppiumUrl(this.appiumUrl, this.remote);
      const [listed, endpoint] = await together(list(), this.endpoint());
      return {
        data: {
          udid: null,
          android_version: null,
          model: null,
          screen: null,
          appium_version: endpoint.version,
          appium_endpoint: endpointData(endpoint),
          devices: listed,
        },
      };
    }
    // Beside any owner (this process's or another's): only read-only adb and Appium's /status, so
    // the status answers while another client holds the device, and `held_by` says who and until when.
    return binding.access.beside(context, 'appium', async (device) => {
      // First whether the device is there and booted (a clear remedy when not), then the rest at once.
      await device.getState();
      const [android_version, model, screen, endpoint, listed] = await together(
        device.getAndroidVersion(),
        device.getModel(),
        this.screen(device),
        this.endpoint(),
        list(),
      );
      // Without a device list (no adb to ask), the device at hand is the list.
      const devices =
        listed.length > 0 || this.router.resolver.hasDirectory
          ? listed
          : [{ serial: binding.serial, state: 'device', avd_name: null, android_version, model, held_by: null }];
      return {
        data: {
          udid: binding.serial,
          android_version,
          model,
          // Whether launches and actions can reach an app (DEVICE_LOCKED otherwise).
          screen,
          appium_version: endpoint.version,
          appium_endpoint: endpointData(endpoint),
          devices,
        },
      };
    });
  }

  private async target(sessionId: string | undefined): Promise<DeviceBinding | null> {
    try {
      return await this.router.bindingFor({ sessionId, reach: 'appium' });
    } catch (error) {
      if (sessionId === undefined && error instanceof HarnessError && error.code === 'DEVICE_AMBIGUOUS') return null;
      throw error;
    }
  }

  private endpoint(): Promise<AutomationEndpointStatus> {
    return this.ceilings.action('asking Appium for its status', this.automation.status());
  }
}
