import { serialIdentity, type DeviceIdentity } from '../../domain/devices/identity.js';
import { checkSerial } from '../../domain/guards.js';
import type { Logger } from '../../domain/ports.js';
import type { BindingFactory, DeviceBinding } from './DeviceBinding.js';

/**
 * The devices this process has driven, one binding per device identity: a serial is
 * identified once (one `getprop`), and a second serial of the same device gets the same binding,
 * so one gate, one lock, one UI session. Bindings live as long as the process (a few objects each).
 */
export class DeviceBindings {
  private readonly byKey = new Map<string, DeviceBinding>();
  private readonly keyOfSerial = new Map<string, string>();
  private readonly pending = new Map<string, Promise<DeviceBinding>>();

  constructor(
    private readonly factory: BindingFactory,
    /** Reads a device's identity; null when there is no adb to ask (fakes): the serial is the identity. */
    private readonly identify: ((serial: string) => Promise<DeviceIdentity>) | null,
    private readonly allowSerials: readonly string[],
    private readonly logger: Logger,
    /**
     * The identity when there is nothing to ask (`identify` null): the serial, or remote mode's
     * endpoint key.
     */
    private readonly knownIdentity: (serial: string) => DeviceIdentity = serialIdentity,
  ) {}

  /**
   * The binding of the device `serial` names. The device guard runs first: a refused serial is never
   * contacted, not even for its identity. A device that does not answer fails the call
   * (EMULATOR_UNAVAILABLE from adb) and is asked again next time.
   */
  forSerial(serial: string): Promise<DeviceBinding> {
    this.checkSerial(serial);
    const known = this.known(serial);
    if (known) return Promise.resolve(known);
    const running = this.pending.get(serial);
    if (running) return running;
    const binding = this.bind(serial).finally(() => this.pending.delete(serial));
    this.pending.set(serial, binding);
    return binding;
  }

  /** The device guard alone: throws EMULATOR_UNAVAILABLE for a serial it refuses, asks nothing of any device. */
  checkSerial(serial: string): void {
    checkSerial(serial, this.allowSerials);
  }

  /** The binding already made for `serial`, if any (no device read). */
  known(serial: string): DeviceBinding | undefined {
    const key = this.keyOfSerial.get(serial);
    return key === undefined ? undefined : this.byKey.get(key);
  }

  /**
   * The binding for `serial` at once, for tests on the fakes (no identity to read). Throws when an
   * identity would have to be read first.
   */
  bindNow(serial: string): DeviceBinding {
    const known = this.known(serial);
    if (known) return known;
    if (this.identify) throw new Error(`${serial} has not been used yet; its identity is read at its first call`);
    return this.adopt(serial, this.knownIdentity(serial));
  }

  /** The device whose UI session (open, or ended recently) has this session_id. */
  withUiSession(sessionId: string): DeviceBinding | undefined {
    return [...this.byKey.values()].find((binding) => binding.sessions.knows(sessionId));
  }

  all(): readonly DeviceBinding[] {
    return [...this.byKey.values()];
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.all().map((binding) => binding.shutdown()));
  }

  private async bind(serial: string): Promise<DeviceBinding> {
    const identity = this.identify ? await this.identify(serial) : this.knownIdentity(serial);
    if (this.identify && identity.source === 'serial') {
      this.logger.warn(
        'the device names no serial number or AVD name; its lock is keyed by this serial, so another serial of it gets another lock',
        { serial },
      );
    }
    return this.known(serial) ?? this.adopt(serial, identity);
  }

  /** Synchronous from the look-up to the insert: two serials of one device cannot both create a binding. */
  private adopt(serial: string, identity: DeviceIdentity): DeviceBinding {
    let binding = this.byKey.get(identity.key);
    if (binding) {
      this.logger.info('another serial of a device already in use: same lock and UI session', {
        serial,
        drives_through: binding.serial,
      });
    } else {
      binding = this.factory(serial, identity);
      this.byKey.set(identity.key, binding);
    }
    this.keyOfSerial.set(serial, identity.key);
    return binding;
  }
}
