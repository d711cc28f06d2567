import { createHash } from 'node:crypto';
import { ANSWER_BUDGET_BYTES, ENVELOPE_RESERVE_BYTES, SUMMARY_BUDGET_BYTES, wireBytesOfJson } from '../../domain/summary/answerBudget.js';
import { redactPasswordTexts } from '../../domain/tree/dump.js';
import { rawPart } from '../../domain/tree/rawPage.js';
import { fitSummaryToBudget } from '../../domain/summary/summaryBudget.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { RefRegistry } from '../screen/RefRegistry.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenAsObserver } from '../screen/screenSource.js';
import { summaryForAnswer } from '../screen/wireSummary.js';

export interface TreeRequest {
  readonly includeRaw: boolean;
  /** Issue 14: the entries' bounds in the answer (for auditing); left out otherwise. */
  readonly includeBounds?: boolean;
  /** Where the part of raw XML starts (raw_truncated.next_offset of an earlier answer); 0 when absent. */
  readonly rawOffset?: number;
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
    private readonly router: DeviceRouter,
    private readonly refs: RefRegistry,
  ) {}

  async getTree(context: OperationContext, request: TreeRequest): Promise<Outcome> {
    const { access, flows } = await this.router.bindingFor({ sessionId: request.sessionId });
    return access.exclusive(context, 'adb', async (device) => {
      const reading = await readScreenAsObserver(flows, device, request.sessionId);
      // Every answer stays within what clients accept (docs/contract.md §2, "Size"): the summary in its share...
      const attached = this.refs.attach(reading);
      const summary = fitSummaryToBudget(summaryForAnswer(attached, request.includeBounds === true), SUMMARY_BUDGET_BYTES);
      // The run's trace draws the entries for a person, bounds asked for or not.
      const trace = { bounds: Object.fromEntries(attached.actions.map((entry) => [entry.ref, entry.bounds] as const)) };
      if (!request.includeRaw) return { data: summary, trace };
      // ...and the raw XML, as the device wrote it except a password field's text (docs/summary.md), in the rest.
      const xml = redactPasswordTexts(reading.xml);
      const room = ANSWER_BUDGET_BYTES - ENVELOPE_RESERVE_BYTES - wireBytesOfJson(JSON.stringify(summary));
      const sha256 = createHash('sha256').update(xml, 'utf8').digest('hex').slice(0, 16);
      return { data: { ...summary, ...rawPart(xml, request.rawOffset ?? 0, room, sha256) }, trace };
    });
  }
}
