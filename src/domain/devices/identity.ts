/**
 * Which physical (or virtual) device a serial names. One device can be on adb under
 * several serials at once (`emulator-5554` and `127.0.0.1:5555` for one emulator; a USB serial and
 * `192.168.1.5:5555` after `adb tcpip`), and the harness must hold ONE lock for it, so the lock is
 * keyed by what the device says about itself, read from its properties:
 *
 * - an emulator (`ro.boot.qemu` or `ro.kernel.qemu` is 1) is its AVD name (`ro.boot.qemu.avd_name`
 *   on current images, `ro.kernel.qemu.avd_name` on older ones). Its `ro.serialno` is NOT used: the
 *   emulator sets `androidboot.serialno=EMULATOR<version>` (e.g. EMULATOR35X6X3X0), the same for
 *   every emulator of one build. Two `-read-only` instances of one AVD share the name, so they share
 *   one lock: too careful (EMULATOR_BUSY), never two drivers on one device;
 * - any other device is its `ro.serialno` (else `ro.boot.serialno`), the hardware serial adb itself
 *   prints for USB devices;
 * - a device that answers but names neither falls back to the adb serial: aliases of it are then
 *   NOT joined (logged; docs/guide/many-devices.md).
 */
export interface DeviceIdentity {
  /** The lock's key: `avd:<name>`, `serialno:<value>`, `serial:<adb serial>`, or in remote mode `remote:<host>/<udid>/<caps hash>`. */
  readonly key: string;
  /** The AVD name of an emulator, else null. */
  readonly avdName: string | null;
  readonly source: 'avd' | 'serialno' | 'serial' | 'remote';
}

/** What one read of a device's properties tells (device_list, emulator_get_status, the lock). */
export interface DeviceFacts {
  readonly identity: DeviceIdentity;
  readonly androidVersion: string | null;
  readonly model: string | null;
}

/** A property value fit for a key or an answer: printable, no separators a file name or a log would mind. */
const PLAIN_VALUE = /^[A-Za-z0-9._:@+-]{1,128}$/;

function plain(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return PLAIN_VALUE.test(trimmed) && trimmed.toLowerCase() !== 'unknown' ? trimmed : null;
}

/** The identity of a device that could not say who it is: its adb serial. */
export function serialIdentity(serial: string): DeviceIdentity {
  return { key: `serial:${serial}`, avdName: null, source: 'serial' };
}

export function identityFromProps(serial: string, props: ReadonlyMap<string, string>): DeviceIdentity {
  const emulator = props.get('ro.boot.qemu')?.trim() === '1' || props.get('ro.kernel.qemu')?.trim() === '1';
  if (emulator) {
    const avd = plain(props.get('ro.boot.qemu.avd_name')) ?? plain(props.get('ro.kernel.qemu.avd_name'));
    return avd ? { key: `avd:${avd}`, avdName: avd, source: 'avd' } : serialIdentity(serial);
  }
  const serialNo = plain(props.get('ro.serialno')) ?? plain(props.get('ro.boot.serialno'));
  return serialNo ? { key: `serialno:${serialNo}`, avdName: null, source: 'serialno' } : serialIdentity(serial);
}

export function factsFromProps(serial: string, props: ReadonlyMap<string, string>): DeviceFacts {
  const text = (name: string): string | null => {
    const value = props.get(name)?.trim() ?? '';
    return value === '' ? null : value.slice(0, 128);
  };
  return {
    identity: identityFromProps(serial, props),
    androidVersion: text('ro.build.version.release'),
    model: text('ro.product.model'),
  };
}
