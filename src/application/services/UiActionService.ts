import { codePointLength } from '../../domain/nodeFacts.js';
import { HarnessError } from '../../domain/errors.js';
import { buildLocator } from '../../domain/locator.js';
import { notFoundMessage } from '../../domain/notFound.js';
import type { AutomationSession, DeviceGateway, ElementRef, Logger } from '../../domain/ports.js';
import type { ActionEntry } from '../../domain/screen.js';
import { selectorToWire, type Selector } from '../../domain/selector.js';
import type { ScrollDirection } from '../../domain/validation.js';
import type { DeviceAccess } from '../DeviceAccess.js';
import type { EvidenceCapture } from '../EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenViaDriver } from '../ScreenReader.js';
import type { SessionBroker } from '../SessionBroker.js';
import { together } from '../together.js';

/** CONTRACT §7: each find waits up to 10 s. */
export const FIND_TIMEOUT_MS = 10_000;
/** CONTRACT §7: a 300 ms swipe through the centre, between 75 % and 25 % of the height. */
export const SWIPE_DURATION_MS = 300;
const SWIPE_FAR = 0.75;
const SWIPE_NEAR = 0.25;
/**
 * How long a long press holds (issue 13 §2). Android turns a press into a long press once it is
 * held for ViewConfiguration.getLongPressTimeout(): 500 ms by default on older releases, 400 ms
 * on newer ones, 1 s or 1.5 s when the user picked a longer "Touch & hold delay". The server's
 * own default holds exactly the timeout, which races the press's UP; Espresso holds 1.5× the
 * timeout for that reason. 1.5 s is 3× the longest default and 1.5× the 1 s setting.
 */
export const LONG_PRESS_HOLD_MS = 1_500;

/**
 * The four driver actions: ui_tap, ui_type_text, ui_scroll, device_back. Each runs on
 * the flow's session or a temporary one, reports the foreground package read through
 * adb afterwards, and leaves a screenshot as evidence (a `failure-<label>` one when it
 * fails after reaching the device).
 */
export class UiActionService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly sessions: SessionBroker,
    private readonly evidence: EvidenceCapture,
    private readonly logger: Logger,
  ) {}

  tap(context: OperationContext, selector: Selector, sessionId?: string, longPress = false): Promise<Outcome> {
    return this.act(context, longPress ? 'ui-long-press' : 'ui-tap', sessionId, async (device, session) => {
      const element = await this.find(device, session, selector);
      // Read before the click: the click may navigate away from the element.
      const label = await session.elementLabel(element);
      if (longPress) await session.longClick(element, LONG_PRESS_HOLD_MS);
      else await session.click(element);
      return { target: selectorToWire(selector), element_label: label, ...(longPress ? { long_press: true } : {}) };
    });
  }

  typeText(context: OperationContext, selector: Selector, text: string, sessionId?: string): Promise<Outcome> {
    return this.act(context, 'ui-type', sessionId, async (device, session) => {
      const element = await this.find(device, session, selector);
      await session.typeText(element, text);
      return { target: selectorToWire(selector), characters_sent: codePointLength(text) };
    });
  }

  scroll(context: OperationContext, direction: ScrollDirection, sessionId?: string): Promise<Outcome> {
    return this.act(context, 'ui-scroll', sessionId, async (_device, session) => {
      const { width, height } = await session.windowSize();
      const x = Math.round(width / 2);
      const far = Math.round(height * SWIPE_FAR);
      const near = Math.round(height * SWIPE_NEAR);
      // The finger moves against the content: to see what is further down, drag upwards.
      const [fromY, toY] = direction === 'down' ? [far, near] : [near, far];
      await session.swipe({ x, y: fromY }, { x, y: toY }, SWIPE_DURATION_MS);
      return { direction };
    });
  }

  back(context: OperationContext, sessionId?: string): Promise<Outcome> {
    return this.act(
      context,
      'device-back',
      sessionId,
      async (_device, session) => {
        await session.back();
        return {};
      },
      // The package back led to is the foreground read right after it (one read serves both keys).
      (foreground) => ({ back_to_package: foreground }),
    );
  }

  private act(
    context: OperationContext,
    label: string,
    sessionId: string | undefined,
    body: (device: DeviceGateway, session: AutomationSession) => Promise<Record<string, unknown>>,
    fromForeground: (foreground: string | null) => Record<string, unknown> = () => ({}),
  ): Promise<Outcome> {
    return this.access.exclusive(context, 'act', async (device) => {
      let reachedDevice = false;
      try {
        const data = await this.sessions.withSession(sessionId, (session) => {
          reachedDevice = true;
          return body(device, session);
        });
        // After the action: the foreground package and the evidence screenshot, read at once.
        const [window, written] = await together(device.getWindowState(), this.evidence.capture(device, label));
        const foreground_package = window.foregroundPackage;
        return { data: { ...data, ...fromForeground(foreground_package), foreground_package }, evidence: written.ref };
      } catch (error) {
        throw reachedDevice ? await this.evidence.attachFailure(device, label, error) : error;
      }
    });
  }

  /** Finds the element or fails with what the screen offers instead. */
  private async find(device: DeviceGateway, session: AutomationSession, selector: Selector): Promise<ElementRef> {
    const element = await session.findElement(buildLocator(selector), FIND_TIMEOUT_MS);
    if (element) return element;
    throw new HarnessError('UI_ELEMENT_NOT_FOUND', notFoundMessage(selector, await this.offers(device, session)));
  }

  private async offers(device: DeviceGateway, session: AutomationSession): Promise<readonly ActionEntry[]> {
    try {
      return (await readScreenViaDriver(device, session)).summary.actions;
    } catch (error) {
      // The message is still useful without the offers; the failure itself is what matters.
      this.logger.warn('could not read the screen for the not-found message', { cause: String(error) });
      return [];
    }
  }
}
