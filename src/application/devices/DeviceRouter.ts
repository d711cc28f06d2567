import { HarnessError } from '../../domain/errors.js';
import type { DeviceBinding } from './DeviceBinding.js';
import type { DeviceBindings } from './DeviceBindings.js';
import type { DeviceResolver } from './DeviceResolver.js';

/** What a call says about its device: a flow's session_id, or a device name (ui_session_open). */
export interface DeviceTarget {
  readonly sessionId?: string;
  readonly device?: string;
}

/**
 * The first step of every device tool (issue 15 §2): which device's binding the call runs on. A
 * session_id names the device its flow was opened on, and nothing else; no session_id, the device
 * named, else the default one (DeviceResolver).
 */
export class DeviceRouter {
  constructor(
    readonly resolver: DeviceResolver,
    readonly bindings: DeviceBindings,
  ) {}

  async bindingFor(target: DeviceTarget): Promise<DeviceBinding> {
    if (target.sessionId !== undefined) {
      const owner = this.bindings.withFlow(target.sessionId);
      if (owner) return owner;
      // An id no device knows: the default device answers it (INVALID_UI_SESSION, or EMULATOR_BUSY
      // naming its own flow), exactly as with one device; with several there is no default.
      try {
        return await this.bindings.forSerial(await this.resolver.resolve(undefined));
      } catch (error) {
        if (error instanceof HarnessError && error.code === 'DEVICE_AMBIGUOUS') {
          throw new HarnessError(
            'INVALID_UI_SESSION',
            'No open flow has this session_id; open one with ui_session_open (device: serial or AVD name from emulator_get_status).',
          );
        }
        throw error;
      }
    }
    return this.bindings.forSerial(await this.resolver.resolve(target.device));
  }
}
