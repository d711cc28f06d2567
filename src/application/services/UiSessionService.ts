import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

/** ui_session_open and ui_session_close. */
export class UiSessionService {
  constructor(private readonly router: DeviceRouter) {}

  /** `device`: a serial or AVD name; the session_id then names that device for every call. */
  async open(context: OperationContext, device?: string): Promise<Outcome> {
    const { access, sessions, serial, identity } = await this.router.bindingFor({ device, reach: 'act' });
    return access.exclusive(context, 'act', async () => ({
      data: { ...(await sessions.open()), device: serial, ...(identity.avdName ? { avd_name: identity.avdName } : {}) },
    }));
  }

  async close(context: OperationContext, sessionId: string): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', async () => {
      await sessions.close(sessionId);
      return { data: { closed: true } };
    });
  }
}
