/**
 * One device's binding: its gate, its cross-process lock, the Appium sessions on it, its warm
 * session, its UI session, and the device gateway that reads through them in remote mode. Built
 * by DeviceBindings the first time a device is used, in the order each part needs the one before.
 */
import type { DeviceBinding, BindingFactory } from '../application/devices/DeviceBinding.js';
import type { EvidenceHolds } from '../application/evidence/EvidenceHolds.js';
import { DeviceAccess } from '../application/ownership/DeviceAccess.js';
import { DeviceGate } from '../application/ownership/DeviceGate.js';
import { WarmSession } from '../application/ownership/WarmSession.js';
import type { EveryDeviceUiSessions } from '../application/sessions/EveryDeviceUiSessions.js';
import { ObserverSessions } from '../application/sessions/ObserverSessions.js';
import { OneSessionAtATime } from '../application/sessions/OneSessionAtATime.js';
import { SessionBroker } from '../application/sessions/SessionBroker.js';
import { SessionHoldingAutomation } from '../application/sessions/SessionHoldingAutomation.js';
import { UiSessions } from '../application/sessions/UiSessions.js';
import type { Ceilings } from '../application/time/Ceilings.js';
import type { HarnessConfig } from '../config.js';
import type { DeviceIdentity } from '../domain/devices/identity.js';
import type { AutomationGateway, Clock, DeviceGateway, DeviceLock, Logger, RandomSource } from '../domain/ports.js';
import type { AppiumEndpoint } from '../infrastructure/appium/ManagedAppium.js';
import { FileDeviceLock, lockDirectoriesToTidy } from '../infrastructure/lock/FileDeviceLock.js';
import type { DeviceAdapters } from './deviceAdapters.js';

/** Ports a test puts in place of the adapters' for one device (or, as `injected`, for every device). */
export interface DevicePorts {
  readonly device?: DeviceGateway;
  readonly automation?: AutomationGateway;
  readonly deviceLock?: DeviceLock | null;
}

export interface BindingParts {
  readonly config: HarnessConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly adapters: DeviceAdapters;
  readonly appium: AppiumEndpoint;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly logger: Logger;
  readonly ceilings: Ceilings;
  /** Where the lock files are; null: no lock of its own (a test's device has no other process to meet). */
  readonly lockDirectory: string | null;
  /** Told when a UI session ends: its evidence is held no longer. */
  readonly holds: EvidenceHolds;
  /** Where each device's UI sessions are registered, for EvidenceHolds to ask. */
  readonly uiSessions: EveryDeviceUiSessions;
  /** A test's ports for every device. */
  readonly injected: DevicePorts;
  /** A test's ports for one more device by serial; unset ports fall back to `injected`'s. */
  readonly forDevice?: (serial: string) => DevicePorts | undefined;
}

export function bindingFactory(parts: BindingParts): BindingFactory {
  return (serial, identity) => bindDevice(parts, serial, identity);
}

function bindDevice(parts: BindingParts, serial: string, identity: DeviceIdentity): DeviceBinding {
  const { config, adapters, clock, ceilings, logger } = parts;
  const custom = parts.forDevice?.(serial);
  const automation = custom?.automation ?? parts.injected.automation ?? adapters.automation(serial, parts.appium);
  const deviceLock = lockFor(parts, custom, identity);
  const gate = new DeviceGate(clock, deviceLock ?? undefined);
  // An Appium session (a UI session's above all) keeps the device this process's between calls.
  // A new session also waits until the one a timeout left closing is gone (its delete would kill the new server).
  const holding = deviceLock ? new SessionHoldingAutomation(automation, deviceLock, clock, logger) : null;
  const sessionAutomation = new OneSessionAtATime(holding ?? automation, clock, logger);
  // The session of an action without session_id, kept for the next one (WarmSession).
  const warm = new WarmSession(clock, ceilings, sessionAutomation, logger, config.warmSessionTimeoutMs);
  // A UI session that ends (closed, expired, voided) holds its evidence no longer: the board says so at once.
  const sessions = new UiSessions(
    clock,
    parts.random,
    ceilings,
    sessionAutomation,
    logger,
    config.sessionIdleTimeoutMs,
    warm,
    () => void parts.holds.publish(),
  );
  parts.uiSessions.add(sessions);
  // Remote mode reads the device through these sessions (no adb); local mode's gateway ignores them.
  const device =
    custom?.device ?? parts.injected.device ?? adapters.device(serial, new ObserverSessions(sessions, warm));
  const access = new DeviceAccess(
    gate,
    ceilings,
    device,
    { udid: serial, allowSerials: adapters.allowSerials, appiumUrl: config.appiumUrl, remote: adapters.remote },
    warm,
  );
  // The device went away under a session: end them all and give the device back now (DeviceAccess).
  access.whenVanished({
    hasSession: () => sessions.isOpen || warm.holdsSession || (holding?.holdsDevice ?? false),
    end: () => {
      const hadUiSession = sessions.deviceGone();
      void warm.release('device_gone');
      holding?.releaseNow();
      return hadUiSession;
    },
  });
  const broker = new SessionBroker(sessions, warm);
  const shutdown = async (): Promise<void> => {
    await Promise.all([sessions.shutdown(), broker.shutdown()]);
  };
  return { serial, identity, gate, access, sessions, warm, broker, shutdown };
}

/** The test's lock for this device, else every device's, else a lock file keyed by the device's identity. */
function lockFor(parts: BindingParts, custom: DevicePorts | undefined, identity: DeviceIdentity): DeviceLock | null {
  if (custom?.deviceLock !== undefined) return custom.deviceLock;
  if (parts.injected.deviceLock !== undefined) return parts.injected.deviceLock;
  if (parts.lockDirectory === null) return null;
  return new FileDeviceLock({
    directory: parts.lockDirectory,
    serial: identity.key,
    logger: parts.logger,
    releaseOnExit: true,
    removeWhenEmpty: lockDirectoriesToTidy(parts.env),
  });
}
