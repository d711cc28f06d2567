import { redactPasswordTexts } from '../../domain/dump.js';
import type { DeviceGateway } from '../../domain/ports.js';
import type { DeviceAccess } from '../DeviceAccess.js';
import type { FlowSessions } from '../FlowSessions.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenViaAdb, readScreenViaDriver, type ScreenReading } from '../ScreenReader.js';

export interface TreeRequest {
  readonly includeRaw: boolean;
  readonly sessionId?: string;
}

/**
 * ui_get_tree: the screen summary. With a session_id, or whenever a flow is open, it
 * reads the flow's page source (a `uiautomator dump` would unregister the flow's
 * UiAutomation); otherwise `uiautomator dump` through adb. Read-only either way.
 */
export class TreeService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly flows: FlowSessions,
  ) {}

  getTree(context: OperationContext, request: TreeRequest): Promise<Outcome> {
    return this.access.exclusive(context, 'adb', async (device) => {
      const reading = await this.read(device, request.sessionId);
      // The raw XML goes out as the device wrote it, except a password field's text (docs/summary.md).
      const data = request.includeRaw ? { ...reading.summary, ui_tree: redactPasswordTexts(reading.xml) } : reading.summary;
      return { data };
    });
  }

  private async read(device: DeviceGateway, sessionId: string | undefined): Promise<ScreenReading> {
    if (sessionId !== undefined) return this.flows.use(sessionId, (session) => readScreenViaDriver(device, session));
    const throughFlow = await this.flows.borrow((session) => readScreenViaDriver(device, session));
    return throughFlow ? throughFlow.value : readScreenViaAdb(device);
  }
}
