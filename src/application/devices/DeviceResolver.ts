import { serialIdentity, type DeviceFacts } from '../../domain/devices/identity.js';
import { HarnessError } from '../../domain/errors.js';
import { checkSerial, isAllowedSerial } from '../../domain/guards.js';
import type { DeviceDirectory, DeviceHolder, ListedDevice } from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';

export interface ResolverPolicy {
  readonly udid: string;
  /** ANDROID_UDID was set: it is the device of every call that names none. */
  readonly udidExplicit: boolean;
  readonly allowSerials: readonly string[];
}

/** One device adb lists and the guard allows, with what it says about itself when online. */
export interface AllowedDevice {
  readonly serial: string;
  readonly state: string;
  /** Null when the device is not online, or did not answer. */
  readonly facts: DeviceFacts | null;
  /** The harness process holding its lock now (this one included), or null. */
  readonly heldBy: DeviceHolder | null;
}

/** A device name the model may send: a serial or an AVD name, nothing a shell or a log would mind. */
const DEVICE_NAME = /^[A-Za-z0-9._:@+[\]-]{1,128}$/;

/** Validates `device` (ui_session_open); INVALID_ARGUMENT when it cannot be a serial or an AVD name. */
export function parseDeviceName(raw: unknown): string {
  if (typeof raw !== 'string' || !DEVICE_NAME.test(raw) || raw.startsWith('-')) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'device must be a serial or an AVD name as emulator_get_status lists them (letters, digits and . _ : @ + - [ ] only).',
    );
  }
  return raw;
}

/**
 * Which device a call runs on (docs/reference/contract.md, "Many devices"). ANDROID_UDID set: that one, as
 * before. Unset: the one allowed device that is online (an emulator-N serial, or one listed in
 * ANDROID_MCP_ALLOW_SERIALS); with several, a call that names none is refused with DEVICE_AMBIGUOUS
 * listing them. A name is a serial adb lists, or the AVD name an allowed online emulator reports.
 * Without a device list (the fakes) the configured serial is the only device.
 */
export class DeviceResolver {
  constructor(
    private readonly directory: DeviceDirectory | null,
    private readonly ceilings: Ceilings,
    private readonly policy: ResolverPolicy,
  ) {}

  get hasDirectory(): boolean {
    return this.directory !== null;
  }

  get discovers(): boolean {
    return this.directory !== null && !this.policy.udidExplicit;
  }

  /** The serial of the device named `name`, or of the default device when `name` is undefined. */
  async resolve(name: string | undefined): Promise<string> {
    if (name === undefined) return this.defaultSerial();
    if (name === this.policy.udid || this.directory === null) {
      if (name !== this.policy.udid) throw this.unknownName(name, []);
      return name;
    }
    const listed = await this.list();
    if (listed.some((device) => device.serial === name)) {
      // The guard speaks first: a refused serial is never contacted.
      checkSerial(name, this.policy.allowSerials);
      return name;
    }
    const online = await this.withFacts(this.allowedOnline(listed));
    const named = online.find((device) => device.facts?.identity.avdName === name);
    if (named) return named.serial;
    throw this.unknownName(name, online);
  }

  /** Every device adb lists that the guard allows, with its facts when online (emulator_get_status). */
  async allowed(): Promise<readonly AllowedDevice[]> {
    if (this.directory === null) return [];
    const listed = (await this.list()).filter((device) => this.allows(device.serial));
    return this.withFacts(listed);
  }

  private async defaultSerial(): Promise<string> {
    if (!this.discovers) return this.policy.udid;
    const listed = await this.list();
    const online = this.allowedOnline(listed);
    if (online.length === 1 && online[0]) return online[0].serial;
    if (online.length === 0) throw this.noneOnline(listed);
    // Several serials may be one device (emulator-5554 and 127.0.0.1:5555): one identity is no choice.
    const described = await this.withFacts(online);
    const identities = new Set(
      described.map((device) => (device.facts?.identity ?? serialIdentity(device.serial)).key),
    );
    if (identities.size === 1 && described[0]) return described[0].serial;
    throw new HarnessError(
      'DEVICE_AMBIGUOUS',
      `Several devices are online: ${describe(described)}. Say which: ui_session_open {device: serial or AVD name}, then pass its session_id; or set ANDROID_UDID.`,
    );
  }

  private allowedOnline(listed: readonly ListedDevice[]): ListedDevice[] {
    return listed.filter((device) => device.state === 'device' && this.allows(device.serial));
  }

  private async withFacts(devices: readonly ListedDevice[]): Promise<AllowedDevice[]> {
    const directory = this.directory;
    return Promise.all(
      devices.map(async (device) => {
        const heldBy = (facts: DeviceFacts | null) =>
          directory?.holderOf((facts?.identity ?? serialIdentity(device.serial)).key) ?? null;
        if (directory === null || device.state !== 'device')
          return { serial: device.serial, state: device.state, facts: null, heldBy: heldBy(null) };
        const facts = await this.ceilings
          .action('reading the device properties', directory.facts(device.serial))
          .catch((error: unknown) => {
            if (error instanceof HarnessError) return null;
            throw error;
          });
        return { serial: device.serial, state: device.state, facts, heldBy: heldBy(facts) };
      }),
    );
  }

  private list(): Promise<readonly ListedDevice[]> {
    if (this.directory === null) return Promise.resolve([]);
    return this.ceilings.action('listing the devices', this.directory.list());
  }

  private allows(serial: string): boolean {
    return isAllowedSerial(serial, this.policy.allowSerials);
  }

  private noneOnline(listed: readonly ListedDevice[]): HarnessError {
    const seen = listed.map(
      (device) =>
        `${device.serial} (${this.allows(device.serial) ? device.state : 'refused: not emulator-N nor in ANDROID_MCP_ALLOW_SERIALS'})`,
    );
    return new HarnessError(
      'EMULATOR_UNAVAILABLE',
      `No allowed device is online${seen.length ? `; adb sees ${seen.join(', ')}` : ' (adb lists none)'}. ` +
        'Start an emulator (emulator -avd <name>), or set ANDROID_UDID, or list a serial in ANDROID_MCP_ALLOW_SERIALS; then retry.',
    );
  }

  private unknownName(name: string, online: readonly AllowedDevice[]): HarnessError {
    return new HarnessError(
      'EMULATOR_UNAVAILABLE',
      `No allowed online device is named '${name}' (by serial or AVD name)${online.length ? `; online: ${describe(online)}` : ''}. Pick one from emulator_get_status.`,
    );
  }
}

/** `emulator-5554 (AVD Pixel_7_API_34), R58M123 (Pixel 8)` for a message. */
function describe(devices: readonly AllowedDevice[]): string {
  return devices
    .map((device) => {
      const avd = device.facts?.identity.avdName;
      const model = device.facts?.model;
      return avd ? `${device.serial} (AVD ${avd})` : model ? `${device.serial} (${model})` : device.serial;
    })
    .join(', ');
}
