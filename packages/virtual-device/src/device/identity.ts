/**
 * What the device's build properties say of it: who it is (a hardware serial, or an emulator of an
 * AVD), its API level, and whether it has finished booting.
 */
import { randomBytes } from 'node:crypto';
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from './clock.js';
import { DEFAULT_PROPS } from './system.js';
import { releaseForSdk } from './traits.js';

type Props = Map<string, string>;

/** The serial number every emulator of one build shares (androidboot.serialno=EMULATOR<version>). */
export const EMULATOR_BUILD_SERIALNO = 'EMULATOR35X6X3X0';

const SDK_PROPS = ['ro.build.version.sdk', 'ro.build.version.release', 'ro.build.version.release_or_codename'] as const;

/** Who the device says it is: a hardware serial of its own, or an emulator's AVD name. */
export function identify(props: Props, options: { readonly avdName?: string; readonly serialNumber?: string }): void {
  if (options.avdName !== undefined) {
    props.set('ro.boot.qemu', '1');
    props.set('ro.kernel.qemu', '1');
    props.set('ro.boot.qemu.avd_name', options.avdName);
    props.set('ro.serialno', EMULATOR_BUILD_SERIALNO);
    props.set('ro.boot.serialno', EMULATOR_BUILD_SERIALNO);
    return;
  }
  const serial = options.serialNumber ?? `VIRTUAL${randomBytes(4).toString('hex').toUpperCase()}`;
  props.set('ro.serialno', serial);
  props.set('ro.boot.serialno', serial);
}

/** API level: ro.build.version.sdk and .release, and the `dumpsys window` layout of that version. */
export function setSdkProps(props: Props, sdk: number): void {
  props.set('ro.build.version.sdk', String(sdk));
  props.set('ro.build.version.release', releaseForSdk(sdk));
  props.set('ro.build.version.release_or_codename', releaseForSdk(sdk));
}

/** Back to the API level the device was built with. */
export function resetSdkProps(props: Props): void {
  for (const key of SDK_PROPS) props.set(key, DEFAULT_PROPS[key] as string);
}

/**
 * A device that answers adb (`get-state` is `device`) before it has finished booting:
 * sys.boot_completed is unset and the boot animation runs until boot completes.
 */
export class BootSequence {
  private booting: AbortController | null = null;

  constructor(
    private readonly props: Props,
    private readonly clock: DeviceClock,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
  ) {}

  /** Boot completes `ms` from now (device time). */
  start(ms: number): void {
    this.booting?.abort();
    this.props.delete('sys.boot_completed');
    this.props.delete('dev.bootcomplete');
    this.props.set('init.svc.bootanim', 'running');
    this.log('fault', `trait booting for ${ms} ms`);
    const booting = new AbortController();
    this.booting = booting;
    this.clock.sleep(ms, booting.signal).then(
      () => {
        if (this.booting === booting) this.finish();
      },
      () => undefined,
    );
  }

  /** Completes a boot still in progress at once. */
  finishNow(): void {
    if (this.booting) this.finish();
  }

  private finish(): void {
    this.booting?.abort();
    this.booting = null;
    this.props.set('sys.boot_completed', '1');
    this.props.set('dev.bootcomplete', '1');
    this.props.set('init.svc.bootanim', 'stopped');
    this.log('fault', 'boot completed');
  }
}
