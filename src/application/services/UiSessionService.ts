import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

/** ui_session_open and ui_session_close. */
export class FlowService {
  constructor(
    private readonly router: DeviceRouter,
  ) {}

  /** `device`: a serial or AVD name (issue 15); the flow's session_id then names that device for every call. */
  async open(context: OperationContext, device?: string): Promise<Outcome> {
    const { access, flows, serial, identity } = await this.router.bindingFor({ device, reach: 'act' });
    return access.exclusive(context, 'act', async () => ({
      data: { ...(await flows.open()), device: serial, ...(identity.avdName ? { avd_name: identity.avdName } : {}) },
    }));
  }

  async close(context: OperationContext, sessionId: string): Promise<Outcome> {
    const { access, flows } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', async () => {
      await flows.close(sessionId);
      return { data: { closed: true } };
    });
  }
}
