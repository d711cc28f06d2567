import { parseDump } from '../../domain/dump.js';
import { codePointLength } from '../../domain/nodeFacts.js';
import { HarnessError } from '../../domain/errors.js';
import { buildLocator } from '../../domain/locator.js';
import { notFoundMessage } from '../../domain/notFound.js';
import type { AutomationSession, Clock, DeviceGateway, ElementRef, Logger } from '../../domain/ports.js';
import { refusedTextMessage } from '../../domain/refusedText.js';
import type { ActionEntry } from '../../domain/screen.js';
import { contentSignature, planScroll } from '../../domain/scrollGesture.js';
import { selectorToWire, type Selector } from '../../domain/selector.js';
import { DEVICE_KEYS, type DeviceKey } from '../../domain/toolsetArguments.js';
import type { ScrollDirection } from '../../domain/validation.js';
import type { DeviceAccess } from '../DeviceAccess.js';
import type { EvidenceCapture } from '../EvidenceCapture.js';
import type { WrittenEvidence } from '../EvidenceWriter.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenViaDriver } from '../ScreenReader.js';
import type { SessionBroker } from '../SessionBroker.js';
import { readSettledForeground, type SettledForeground } from '../settledForeground.js';
import { together } from '../together.js';

/** CONTRACT §7: each find waits up to 10 s. */
export const FIND_TIMEOUT_MS = 10_000;

/**
 * How the foreground is read after an action (issue 12). `back`: PressBack returns before the
 * window focus has moved, so the package in front before Back is read first and the foreground
 * afterwards until it settles. `focused`: the server waited for idle after the action, so one
 * read suffices unless no window has focus yet.
 */
type AfterAction = 'back' | 'focused';

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
 * adb afterwards (`foreground_settled: false` when it had not settled within the bound),
 * and leaves a screenshot as evidence (a `failure-<label>` one when it fails after
 * reaching the device).
 */
export class UiActionService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly sessions: SessionBroker,
    private readonly evidence: EvidenceCapture,
    private readonly logger: Logger,
    private readonly clock: Clock,
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
      // Flutter fields take set-text only while they have focus (RenderEditable offers onSetText
      // only then); a person taps a field before typing too. A focused field is left alone.
      const tapped = !(await session.isFocused(element));
      if (tapped) await session.click(element);
      if ((await session.typeText(element, text)) === 'refused') {
        throw new HarnessError('UI_ELEMENT_NOT_FOUND', refusedTextMessage(selector, tapped, await this.offers(device, session)));
      }
      return { target: selectorToWire(selector), characters_sent: codePointLength(text) };
    });
  }

  /**
   * One page, over the largest scrollable container, started above the keyboard and clear of the
   * system bars, released slowly enough not to fling (docs/device-quirks.md). `moved` compares
   * that container's content before and after: a swipe at the end of a list moves nothing.
   */
  scroll(context: OperationContext, direction: ScrollDirection, sessionId?: string): Promise<Outcome> {
    return this.act(context, 'ui-scroll', sessionId, async (device, session) => {
      const before = await readScreenViaDriver(device, session);
      let screen = before.summary.screen;
      if (screen.width <= 0 || screen.height <= 0) screen = await session.windowSize();
      const plan = planScroll(before.tree, { screen, density: before.context.density, ime: before.context.window.ime }, direction);
      await session.swipe(plan.path);
      const after = parseDump(await session.pageSource());
      const moved = contentSignature(before.tree, plan.container) !== contentSignature(after, plan.container);
      return { direction, moved };
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
      // The package back led to is the settled foreground (one read serves both keys).
      (foreground) => ({ back_to_package: foreground }),
      'back',
    );
  }

  /**
   * device_key (issue 16): one key event through the driver (`mobile: pressKey`); `back` is
   * device_back's own PressBack. Home, Recents and Back move the focus after the call returns,
   * so the foreground is read until it settles, as after Back; Enter is read once.
   */
  key(context: OperationContext, key: DeviceKey, sessionId?: string): Promise<Outcome> {
    return this.act(
      context,
      'device-key',
      sessionId,
      async (_device, session) => {
        if (key === 'back') await session.back();
        else await session.pressKey(DEVICE_KEYS[key]);
        return { key };
      },
      () => ({}),
      key === 'enter' ? 'focused' : 'back',
    );
  }

  private act(
    context: OperationContext,
    label: string,
    sessionId: string | undefined,
    body: (device: DeviceGateway, session: AutomationSession) => Promise<Record<string, unknown>>,
    fromForeground: (foreground: string | null) => Record<string, unknown> = () => ({}),
    after: AfterAction = 'focused',
  ): Promise<Outcome> {
    return this.access.exclusive(context, 'act', async (device) => {
      let reachedDevice = false;
      try {
        let before: string | null = null;
        const data = await this.sessions.withSession(sessionId, async (session) => {
          reachedDevice = true;
          // Read inside the session, right before the action: opening a session can move the focus itself.
          if (after === 'back') before = (await device.getWindowState()).foregroundPackage;
          return body(device, session);
        });
        const { foreground, written } = after === 'back' ? await this.settleThenCapture(device, label, before) : await this.captureWhileReading(device, label);
        const foreground_package = foreground.window.foregroundPackage;
        return {
          data: { ...data, ...fromForeground(foreground_package), foreground_package, ...(foreground.settled ? {} : { foreground_settled: false }) },
          evidence: written.ref,
        };
      } catch (error) {
        throw reachedDevice ? await this.evidence.attachFailure(device, label, error) : error;
      }
    });
  }

  /** After Back: the evidence shows the screen once the focus has settled. */
  private async settleThenCapture(device: DeviceGateway, label: string, before: string | null): Promise<{ foreground: SettledForeground; written: WrittenEvidence }> {
    const foreground = await readSettledForeground(device, this.clock, { kind: 'changed-or-repeated', before });
    return { foreground, written: await this.evidence.capture(device, label) };
  }

  /** After an action the server waited for idle on: the foreground and the evidence at once, more reads only while no window has focus. */
  private async captureWhileReading(device: DeviceGateway, label: string): Promise<{ foreground: SettledForeground; written: WrittenEvidence }> {
    const [window, written] = await together(device.getWindowState(), this.evidence.capture(device, label));
    return { foreground: await readSettledForeground(device, this.clock, { kind: 'focused' }, window), written };
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
