import type { DeviceGateway } from '../../domain/ports.js';
import type { DeviceAccess } from '../DeviceAccess.js';
import type { FlowSessions } from '../FlowSessions.js';
import type { RefRegistry } from '../RefRegistry.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenViaAdb, readScreenViaDriver, type ScreenReading } from '../ScreenReader.js';

export interface TreeRequest {
  readonly includeRaw: boolean;
  readonly sessionId?: string;
}

/**
 * ui_get_tree: the screen summary. With a session_id, or whenever a flow is open, it
 * reads the flow's page source (a `uiautomator dump` would unregister the flow's
 * UiAutomation); otherwise `uiautomator dump` through adb. Read-only either way. Every offered
 * entry gets its ref from the registry (issue 13).
 */
export class TreeService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly flows: FlowSessions,
    private readonly refs: RefRegistry,
  ) {}

  getTree(context: OperationContext, request: TreeRequest): Promise<Outcome> {
    return this.access.exclusive(context, 'adb', async (device) => {
      const reading = await this.read(device, request.sessionId);
      const summary = this.refs.attach(reading);
      const data = request.includeRaw ? { ...summary, ui_tree: reading.xml } : summary;
      return { data };
    });
  }

  private async read(device: DeviceGateway, sessionId: string | undefined): Promise<ScreenReading> {
    if (sessionId !== undefined) return this.flows.use(sessionId, (session) => readScreenViaDriver(device, session));
    const throughFlow = await this.flows.borrow((session) => readScreenViaDriver(device, session));
    return throughFlow ? throughFlow.value : readScreenViaAdb(device);
  }
}
