import { createHash } from 'node:crypto';
import { HarnessError } from '../../domain/errors.js';
import { isRefTarget, type ActionTarget } from '../../domain/refs/refTarget.js';
import { locateIdentity } from '../../domain/refs/refIdentity.js';
import { matchSelector } from '../../domain/selectors/matcher.js';
import { expandIds, selectorToWire } from '../../domain/selectors/selector.js';
import { notFoundMessage } from '../../domain/summary/notFound.js';
import { screenTexts, summaryWithin } from '../../domain/summary/screenParts.js';
import { fitSummaryToBudget } from '../../domain/summary/summaryBudget.js';
import { isVisible } from '../../domain/tree/nodeFacts.js';
import type { UiNode } from '../../domain/tree/uiNode.js';
import type { ScreenReading } from '../screen/ScreenReader.js';
import { summaryForAnswer } from '../screen/wireSummary.js';
import {
  ANSWER_BUDGET_BYTES,
  ENVELOPE_RESERVE_BYTES,
  SUMMARY_BUDGET_BYTES,
  wireBytesOfJson,
} from '../../domain/summary/answerBudget.js';
import { redactPasswordTexts } from '../../domain/tree/dump.js';
import { rawPart } from '../../domain/tree/rawPage.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { originWords, refsByNode } from '../screen/RefRegistry.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenAsObserver } from '../screen/screenSource.js';
import type { VisualReader } from '../screen/VisualReader.js';

export interface TreeRequest {
  readonly includeRaw: boolean;
  /** The entries' bounds in the answer (for auditing); left out otherwise. */
  readonly includeBounds?: boolean;
  /** Where the part of raw XML starts (raw_truncated.next_offset of an earlier answer); 0 when absent. */
  readonly rawOffset?: number;
  readonly sessionId?: string;
  /** `since: "last"`: a diff against the device's last read when the screen is the same one. */
  readonly sinceLast?: boolean;
  /** `within`: one container, named by a ref or a selector. */
  readonly within?: ActionTarget;
  /** `mode: "text"`: the screen's texts only. */
  readonly textOnly?: boolean;
}

/**
 * ui_get_tree: the screen summary. With a session_id, or whenever a UI session is open, it
 * reads that session's page source (a `uiautomator dump` would unregister the session's
 * UiAutomation); otherwise `uiautomator dump` through adb. Read-only either way. Every offered
 * entry gets its ref from the registry (the same element keeps its ref across reads), and every answer its read id (ScreenReads).
 */
export class TreeService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly reads: ScreenReads,
    /** Absent: no visual entries (a harness built without an OCR port, as most unit tests are). */
    private readonly visual?: VisualReader,
  ) {}

  async getTree(context: OperationContext, request: TreeRequest): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId: request.sessionId });
    return access.exclusive(context, 'adb', async (device) => {
      const read0 = await readScreenAsObserver(sessions, device, request.sessionId);
      if (request.within !== undefined || request.textOnly === true) return { data: this.part(read0, request) };
      // Where the tree is silent, the pixels are read (VisualReader); a tree that names everything costs nothing.
      const reading = this.visual ? await this.visual.withVisual(device, read0) : read0;
      // Every answer stays within what clients accept (docs/reference/contract.md, "Size of an answer"): the
      // summary in its share...
      const read = this.reads.answerAndBounds(device, reading, {
        diff: request.sinceLast === true,
        includeBounds: request.includeBounds === true,
      });
      const summary = read.answer;
      // The run's trace draws the entries for a person, bounds asked for or not.
      const trace = { bounds: read.bounds };
      if (!request.includeRaw) return { data: summary, trace };
      // ...and the raw XML, as the device wrote it except a password field's text (docs/reference/summary.md), in the rest.
      const xml = redactPasswordTexts(reading.xml);
      const room = ANSWER_BUDGET_BYTES - ENVELOPE_RESERVE_BYTES - wireBytesOfJson(JSON.stringify(summary));
      const sha256 = createHash('sha256').update(xml, 'utf8').digest('hex').slice(0, 16);
      return { data: { ...summary, ...rawPart(xml, request.rawOffset ?? 0, room, sha256) }, trace };
    });
  }

  /** A container's summary, or the texts (of the screen or of a container), within the summary's share of the budget. */
  private part(reading: ScreenReading, request: TreeRequest): Record<string, unknown> {
    const container = request.within === undefined ? undefined : this.containerOf(reading, request.within);
    const echo =
      request.within === undefined
        ? {}
        : {
            within: isRefTarget(request.within) ? { ref: request.within.ref } : selectorToWire(request.within.selector),
          };
    return this.reads.part(reading, (withRefs) => {
      if (request.textOnly === true) {
        // The refs this read gave, by node: a text repeated in two entries is told apart by them.
        const refOf = refsByNode(reading.plans, withRefs);
        const { texts, truncated } = screenTexts(reading.tree, container, (node) => refOf.get(node));
        const fitted = fitSummaryToBudget(
          {
            ...echo,
            foreground_package: withRefs.foreground_package,
            texts,
            actions: [],
            ...(truncated ? { truncated: true as const } : {}),
          },
          SUMMARY_BUDGET_BYTES,
        );
        // No actions in a text read: the list was only there for the budget's cut.
        const { actions: _none, counts, ...rest } = fitted as typeof fitted & { counts?: { texts: number } };
        return { ...rest, ...(counts ? { counts: { texts: counts.texts } } : {}) };
      }
      const inside = summaryWithin(withRefs, reading.plans, container!);
      return {
        ...echo,
        ...fitSummaryToBudget(summaryForAnswer(inside, request.includeBounds === true), SUMMARY_BUDGET_BYTES),
      };
    });
  }

  /**
   * The node `within` names on this reading: STALE_REF for a ref that no longer names its element,
   * UI_ELEMENT_NOT_FOUND for a selector that names nothing visible.
   */
  private containerOf(reading: ScreenReading, target: ActionTarget): UiNode {
    if (isRefTarget(target)) {
      const known = this.reads.lookupRef(target.ref);
      const node = 'identity' in known ? locateIdentity(reading.tree, reading.window, known.identity) : null;
      if (node) return node;
      throw new HarnessError(
        'STALE_REF',
        `The screen changed since ${'origin' in known ? originWords(known.origin) + ' gave' : 'the read that gave'} ref ${target.ref}: call ui_get_tree again and send a ref from its answer as within.`,
      );
    }
    const node = matchSelector(reading.tree, expandIds(target.selector, reading.summary.foreground_package)).find(
      isVisible,
    );
    if (node) return node;
    throw new HarnessError('UI_ELEMENT_NOT_FOUND', notFoundMessage(target.selector, reading.summary.actions));
  }
}
