import { HarnessError } from '../domain/errors.js';

/**
 * Which `{id}` a REST path may name. Until several devices are served (issue 15), the one the
 * server drives: the configured serial (ANDROID_UDID). Any other id is refused before the tool
 * runs, with HTTP 404, rather than silently driving the configured device under another name.
 */
export interface DeviceIds {
  /** Null when `id` names a device this server drives, else the refusal. */
  refusal(id: string): HarnessError | null;
}

export function configuredDevice(serial: string): DeviceIds {
  return {
    refusal: (id) =>
      id === serial
        ? null
        : new HarnessError(
            'EMULATOR_UNAVAILABLE',
            `No device ${JSON.stringify(id.slice(0, 64))} here: this server drives ${serial} (ANDROID_UDID). Use /devices/${serial}/…; GET /devices lists what adb sees.`,
          ),
  };
}
