import type { DeviceResolver } from '../application/devices/DeviceResolver.js';
import type { DeviceRouter } from '../application/devices/DeviceRouter.js';
import { HarnessError } from '../domain/errors.js';

/**
 * The device a REST path names (as everywhere: a serial adb lists, or an allowed emulator's
 * AVD name). The call runs on that device: without session_id on its binding, with one only if
 * that UI session is on it (DeviceRouter.onDevice). An id that names no allowed online device is refused
 * before the tool runs, with HTTP 404, rather than silently driving another device under its name.
 */
export interface DeviceIds {
  /** Null when `id` names an allowed online device, else the refusal. */
  refusal(id: string): Promise<HarnessError | null>;
  /** Runs `body` with `id` as the device of every call in it (after `refusal` said null). */
  on<T>(id: string, body: () => Promise<T>): Promise<T>;
}

export function resolvedDevice(
  resolver: Pick<DeviceResolver, 'resolve'>,
  router: Pick<DeviceRouter, 'onDevice'>,
): DeviceIds {
  return {
    refusal: async (id) => {
      try {
        await resolver.resolve(id);
        return null;
      } catch (error) {
        if (error instanceof HarnessError) return error;
        throw error;
      }
    },
    on: (id, body) => router.onDevice(id, body),
  };
}
