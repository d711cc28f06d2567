import { HarnessError } from '../../domain/errors.js';
import { matchSelector } from '../../domain/selectors/matcher.js';
import { isVisible } from '../../domain/tree/nodeFacts.js';
import type { Clock } from '../../domain/ports.js';
import { expandIds, selectorToWire, type Selector } from '../../domain/selectors/selector.js';
import type { WaitUntil } from '../../domain/toolsetArguments.js';
import { DeadlineExceeded, withDeadline } from '../time/deadline.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { readScreenAsObserver } from '../screen/screenSource.js';
import type { ScreenReading } from '../screen/ScreenReader.js';
import { visualTextTest } from '../../domain/visual/visualText.js';

/** ui_wait's bounds, and how often it looks again. */
export const WAIT_DEFAULT_S = 10;
export const WAIT_MAX_S = 60;
export const WAIT_MIN_S = 0.5;
export const WAIT_POLL_INTERVAL_MS = 500;

export interface WaitRequest {
  readonly selector: Selector;
  readonly until: WaitUntil;
  readonly timeoutMs: number;
  readonly sessionId?: string;
  /** The entries' bounds in the answer's summary; left out otherwise. */
  readonly includeBounds?: boolean;
}

/**
 * ui_wait (toolset `wait`): reads the screen the way ui_get_tree does (the UI session's page source
 * when one is open, else `uiautomator dump`), read-only, until the selector names a visible
 * node (`visible`) or none (`gone`). A bare `text` or `text_contains` the tree does not have is
 * also looked for in what OCR reads where the tree is silent (docs/reference/summary.md, "Visual
 * refs"): only then, so a screen whose tree names everything, or has the text, pays no OCR. The
 * whole wait, reads included, is bounded by its timeout, so the device gate is never held longer than that.
 */
export class WaitService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly clock: Clock,
    private readonly reads: ScreenReads,
  ) {}

  async wait(context: OperationContext, request: WaitRequest): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId: request.sessionId });
    return access.exclusive(context, 'adb', async (device) => {
      const started = this.clock.monotonicMs();
      const state: { stop: boolean; lastPresent: boolean | null } = { stop: false, lastPresent: null };
      const readsText = visualTextTest(request.selector);
      const loop = async (): Promise<Outcome> => {
        for (;;) {
          // The deadline answered already: no read after it (the gate is being given back).
          if (state.stop) throw new DeadlineExceeded('timed out');
          const tree = await readScreenAsObserver(sessions, device, request.sessionId);
          // An `id` means the foreground package of this reading, the one its summary writes ids for.
          const inTree = matchSelector(tree.tree, expandIds(request.selector, tree.summary.foreground_package)).some(
            isVisible,
          );
          // The pixels only when the tree has no such text and they could have it.
          const reading = !inTree && readsText !== null ? await this.reads.withVisual(device, tree) : tree;
          const present = inTree || (readsText !== null && visualTexts(reading).some(readsText));
          state.lastPresent = present;
          if (present === (request.until === 'visible')) {
            // The same summary as ui_get_tree's, refs and visual entries included, so the model can act on what it waited for.
            const answered = reading === tree ? await this.reads.withVisual(device, tree) : reading;
            const summary = this.reads.answer(device, answered, {
              diff: false,
              includeBounds: request.includeBounds === true,
              origin: 'ui_wait',
            });
            return {
              data: { until: request.until, waited_ms: Math.round(this.clock.monotonicMs() - started), ...summary },
            };
          }
          const remaining = request.timeoutMs - (this.clock.monotonicMs() - started);
          if (state.stop || remaining <= 0) throw new DeadlineExceeded('timed out');
          await this.clock.sleep(Math.min(WAIT_POLL_INTERVAL_MS, remaining));
        }
      };
      try {
        return await withDeadline(this.clock, request.timeoutMs, loop(), 'timed out');
      } catch (error) {
        state.stop = true;
        if (error instanceof DeadlineExceeded) throw this.timeout(request, state.lastPresent);
        throw error;
      }
    });
  }

  private timeout(request: WaitRequest, lastPresent: boolean | null): HarnessError {
    const selector = JSON.stringify(selectorToWire(request.selector));
    const seconds = request.timeoutMs / 1000;
    const what =
      lastPresent === null
        ? `the screen could not be read within ${seconds} s`
        : request.until === 'visible'
          ? `${selector} was still not on screen after ${seconds} s`
          : `${selector} was still on screen after ${seconds} s`;
    return new HarnessError(
      'OPERATION_TIMEOUT',
      `ui_wait: ${what}. Call ui_get_tree to see what the screen shows, then wait again (timeout_s up to ${WAIT_MAX_S}) or act.`,
    );
  }
}

/** The texts OCR read on this reading (none when it was not read, or could not be). */
function visualTexts(reading: ScreenReading): string[] {
  return reading.visual?.kind === 'read' ? reading.visual.entries.map((entry) => entry.text) : [];
}
