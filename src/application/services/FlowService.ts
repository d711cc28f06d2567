import type { DeviceAccess } from '../ownership/DeviceAccess.js';
import type { FlowSessions } from '../sessions/FlowSessions.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

/** ui_session_open and ui_session_close. */
export class FlowService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly flows: FlowSessions,
  ) {}

  open(context: OperationContext): Promise<Outcome> {
    return this.access.exclusive(context, 'act', async () => ({ data: await this.flows.open() }));
  }

  close(context: OperationContext, sessionId: string): Promise<Outcome> {
    return this.access.exclusive(context, 'act', async () => {
      await this.flows.close(sessionId);
      return { data: { closed: true } };
    });
  }
}
