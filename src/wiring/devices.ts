/**
 * Which devices there are and which one a call runs on: the device list (adb's, unless a test
 * injected a device or remote mode has no adb), the resolver of names, one binding per device
 * identity, and the router every device tool starts with.
 */
import { DeviceBindings } from '../application/devices/DeviceBindings.js';
import { DeviceResolver } from '../application/devices/DeviceResolver.js';
import { DeviceRouter } from '../application/devices/DeviceRouter.js';
import type { DeviceIdentity } from '../domain/devices/identity.js';
import type { DeviceDirectory } from '../domain/ports.js';
import { bindingFactory, type BindingParts } from './deviceBinding.js';

export interface Devices {
  /** Every device adb sees; null when the configured serial is the only device. */
  readonly directory: DeviceDirectory | null;
  readonly resolver: DeviceResolver;
  readonly bindings: DeviceBindings;
  readonly router: DeviceRouter;
}

/** `directory`: a test's device list, in place of the adapters'. */
export function createDevices(parts: BindingParts, directory: DeviceDirectory | undefined): Devices {
  const { config, adapters, ceilings } = parts;
  // Without a device list (a fake device injected, or remote mode: no adb) the configured serial is the only device.
  const listed = directory ?? (parts.injected.device ? null : adapters.directory(parts.lockDirectory));
  const resolver = new DeviceResolver(listed, ceilings, {
    udid: config.udid,
    udidExplicit: config.udidExplicit,
    allowSerials: adapters.allowSerials,
  });
  const identify = listed
    ? async (serial: string): Promise<DeviceIdentity> =>
        (await ceilings.action('reading the device properties', listed.facts(serial))).identity
    : null;
  const bindings = new DeviceBindings(bindingFactory(parts), identify, adapters.allowSerials, parts.logger, (serial) =>
    adapters.identity(serial),
  );
  const router = new DeviceRouter(resolver, bindings, config.appiumUrl, adapters.remote);
  return { directory: listed, resolver, bindings, router };
}
