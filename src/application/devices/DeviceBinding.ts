import type { DeviceIdentity } from '../../domain/devices/identity.js';
import type { DeviceAccess } from '../ownership/DeviceAccess.js';
import type { DeviceGate } from '../ownership/DeviceGate.js';
import type { WarmSession } from '../ownership/WarmSession.js';
import type { UiSessions } from '../sessions/UiSessions.js';
import type { SessionBroker } from '../sessions/SessionBroker.js';

/**
 * Everything one device needs of its own, so that several devices can be driven at once: its gate
 * and cross-process lock (inside `access`), its UI session, its warm session, its Appium
 * sessions (own systemPort). Built by the container, one per device identity, so two UI sessions on two
 * devices never share any of it and two serials of one device share all of it.
 */
export interface DeviceBinding {
  /** The serial this process drives the device through (the first one it was named by). */
  readonly serial: string;
  readonly identity: DeviceIdentity;
  readonly gate: DeviceGate;
  readonly access: DeviceAccess;
  readonly sessions: UiSessions;
  readonly warm: WarmSession;
  readonly broker: SessionBroker;
  /** Closes the UI session, the warm session and those of running actions. */
  shutdown(): Promise<void>;
}

export type BindingFactory = (serial: string, identity: DeviceIdentity) => DeviceBinding;
