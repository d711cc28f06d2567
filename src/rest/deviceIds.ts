import type { DeviceResolver } from '../application/devices/DeviceResolver.js';
import { HarnessError } from '../domain/errors.js';

/**
 * Which `{id}` a REST path may name (issue 15's naming: a serial adb lists, or an allowed
 * emulator's AVD name). A call without session_id runs on the default device (ANDROID_UDID, or the
 * one allowed online), so `{id}` must resolve to that one; any other id is refused before the tool
 * runs, with HTTP 404, rather than silently driving another device under its name.
 */
export interface DeviceIds {
  /** Null when `id` names the device a call runs on, else the refusal. */
  refusal(id: string): Promise<HarnessError | null>;
}

export function resolvedDevice(resolver: Pick<DeviceResolver, 'resolve'>): DeviceIds {
  return {
    refusal: async (id) => {
      let named: string;
      try {
        named = await resolver.resolve(id);
      } catch (error) {
        if (error instanceof HarnessError) return error;
        throw error;
      }
      // Several devices online and none configured: the default is the ambiguity itself.
      const current = await resolver.resolve(undefined).catch((error: unknown) => (error instanceof HarnessError ? error : Promise.reject(error)));
      if (current instanceof HarnessError) return current;
      if (named === current) return null;
      return new HarnessError(
        'EMULATOR_UNAVAILABLE',
        `Device ${JSON.stringify(id.slice(0, 64))} is not the one calls without a flow run on (${current}): use /devices/${current}/…, ` +
          'or open a flow on it over MCP (ui_session_open {device}) and pass its session_id.',
      );
    },
  };
}
