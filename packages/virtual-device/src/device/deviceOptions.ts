/** How a virtual device is made: its options, beyond the traits a test can also turn later. */
import type { DeviceConnectionState, DeviceLogEntry } from '../contracts.js';
import type { HelperVersions } from '../scenario/defaultScenario.js';
import type { TimingMode } from '../timing/costModel.js';
import type { DeviceClock } from './clock.js';
import type { DeviceTraitOptions } from './traits.js';

export interface VirtualDeviceOptions extends DeviceTraitOptions {
  readonly clock?: DeviceClock;
  /** A real capture of one screen, served as it is while that screen shows (StaticScreenOptions.screenshotPng). */
  readonly realCapture?: { readonly screenId: string; readonly png: Buffer };
  /** How long `am instrument` takes before port 6790 answers (the real server needs about a second). */
  readonly instrumentationStartupMs?: number;
  /** How long a `uiautomator dump` holds UiAutomation; unset: the timing's (docs/internals/virtual-device.md, "Timing"). */
  readonly dumpDurationMs?: number;
  /**
   * `real`: every operation with a real cost takes a real device's time, drawn from the recorded
   * median and tail; `fast`: none waits (suites that do not measure time, with a reason). Default:
   * ANDROID_MCP_VIRTUAL_DEVICE_TIMING if it says `fast`, else `real`.
   */
  readonly timing?: TimingMode;
  /** Seed of the timing's draws (default 40): one seed, the same waits in the same order. */
  readonly timingSeed?: number;
  readonly helperVersions?: HelperVersions;
  /** Behave like a device without shell_v2 (CRLF through a PTY). */
  readonly legacyPty?: boolean;
  readonly connectionState?: DeviceConnectionState;
  /** `get-state` says `device` but sys.boot_completed stays unset for this long (a device still booting). */
  readonly bootDelayMs?: number;
  /** Called for every log entry (the CLI prints them). */
  readonly onLog?: (entry: DeviceLogEntry) => void;
  /**
   * ro.serialno and ro.boot.serialno, the hardware serial a real device reports (and adb prints for
   * USB devices). Default: `VIRTUAL` and 8 hex digits, different for every device made.
   */
  readonly serialNumber?: string;
  /**
   * Answer as an emulator of this AVD: ro.boot.qemu and ro.kernel.qemu 1,
   * ro.boot.qemu.avd_name (current images; older ones had ro.kernel.qemu.avd_name) the name, and
   * ro.serialno the emulator's build string (EMULATOR35X6X3X0), which is the same for every
   * emulator of one build, as on a real emulator.
   */
  readonly avdName?: string;
}

export interface StaticScreenOptions extends VirtualDeviceOptions {
  /** Package shown by dumpsys (default: the dump's first package). */
  readonly package?: string;
  /** Activity shown by dumpsys (default `.StaticActivity`). */
  readonly activity?: string;
  /**
   * A real capture of the same screen (PNG bytes): `screencap` and the UiAutomator2 screenshot answer
   * it as it is while the static screen shows, instead of the device's own drawing of the dump.
   */
  readonly screenshotPng?: Buffer;
}

export interface CurrentScreen {
  readonly package: string;
  readonly activity: string;
  readonly screenId: string;
}
