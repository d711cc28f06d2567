import { AsyncLocalStorage } from 'node:async_hooks';
import { HarnessError } from '../../domain/errors.js';
import { checkAppiumUrl, needsEndpointGuard, type Reach } from '../../domain/guards.js';
import type { DeviceBinding } from './DeviceBinding.js';
import type { DeviceBindings } from './DeviceBindings.js';
import type { DeviceResolver } from './DeviceResolver.js';

/** What a call says about its device: a UI session's session_id, or a device name (ui_session_open). */
export interface DeviceTarget {
  readonly sessionId?: string;
  readonly device?: string;
  /**
   * What the call will reach (DeviceAccess.exclusive's `reach`). For 'appium' and 'act' the Appium
   * guard runs before anything is asked of a device, even its identity (a non-loopback Appium is
   * refused before anything: under it nothing reaches the device).
   */
  readonly reach?: Reach;
}

/**
 * The first step of every device tool: which device's binding the call runs on. A
 * session_id names the device its UI session was opened on, and nothing else; no session_id, the device
 * named, else the default one (DeviceResolver).
 */
export class DeviceRouter {
  /** The device a REST path names (`/devices/{id}/…`), for the calls made inside `onDevice`. */
  private readonly scope = new AsyncLocalStorage<string>();

  constructor(
    readonly resolver: DeviceResolver,
    readonly bindings: DeviceBindings,
    /** APPIUM_URL, for the guard that runs first when a call reaches Appium or acts. */
    private readonly appiumUrl: string | null = null,
    /** Remote mode: https endpoints pass the Appium guard too. */
    private readonly remote = false,
  ) {}

  /**
   * Runs `body` with `device` (a serial or AVD name) as the device of every call in it that names
   * none: the REST mirror's `{id}` (docs/reference/contract.md, "The REST mirror"). A session_id inside must
   * be a UI session on that device, else INVALID_UI_SESSION: a path never drives another device than the
   * one it names.
   */
  onDevice<T>(device: string, body: () => Promise<T>): Promise<T> {
    return this.scope.run(device, body);
  }

  async bindingFor(target: DeviceTarget): Promise<DeviceBinding> {
    const scoped = this.scope.getStore();
    if (target.sessionId !== undefined) {
      const owner = this.bindings.withUiSession(target.sessionId);
      if (owner && scoped !== undefined) {
        const named = await this.guarded(await this.resolver.resolve(scoped), target);
        if (named !== owner) {
          throw new HarnessError(
            'INVALID_UI_SESSION',
            `This session_id is a UI session on ${owner.serial}, not on ${scoped}: send it under /devices/${owner.serial}/…, or open one on ${scoped}.`,
          );
        }
        return owner;
      }
      if (owner) return owner;
      // A path's device answers an id none of its UI sessions knows (INVALID_UI_SESSION, or EMULATOR_BUSY naming its own UI session).
      if (scoped !== undefined) return this.guarded(await this.resolver.resolve(scoped), target);
      // An id no device knows: the default device answers it (INVALID_UI_SESSION, or EMULATOR_BUSY
      // naming its own UI session), exactly as with one device; with several there is no default.
      try {
        return await this.guarded(await this.resolver.resolve(undefined), target);
      } catch (error) {
        if (error instanceof HarnessError && error.code === 'DEVICE_AMBIGUOUS') {
          throw new HarnessError(
            'INVALID_UI_SESSION',
            'No open UI session has this session_id; open one with ui_session_open (device: serial or AVD name from emulator_get_status).',
          );
        }
        throw error;
      }
    }
    return this.guarded(await this.resolver.resolve(target.device ?? scoped), target);
  }

  /**
   * The guards in the order of docs/reference/contract.md's "Order of checks in every call" (the device's,
   * then Appium's when the call needs it), then the binding.
   */
  private guarded(serial: string, target: DeviceTarget): Promise<DeviceBinding> {
    if (this.appiumUrl !== null && needsEndpointGuard(target.reach ?? 'adb', this.remote)) {
      this.bindings.checkSerial(serial);
      checkAppiumUrl(this.appiumUrl, this.remote);
    }
    return this.bindings.forSerial(serial);
  }
}
