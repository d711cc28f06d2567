import { codePointLength } from '../../domain/nodeFacts.js';
import { HarnessError } from '../../domain/errors.js';
import { buildLocator } from '../../domain/locator.js';
import { notFoundMessage } from '../../domain/notFound.js';
import type { AutomationSession, DeviceGateway, ElementRef, Logger } from '../../domain/ports.js';
import { nameOfEntry, type ActionEntry } from '../../domain/screen.js';
import { selectorToWire, type Selector } from '../../domain/selector.js';
import { isRefTarget, type ActionTarget } from '../../domain/refs/refTarget.js';
import { locateIdentity, refLocator } from '../../domain/refs/refIdentity.js';
import { REF_GENERATIONS, type RefRegistry } from '../RefRegistry.js';
import type { ScrollDirection } from '../../domain/validation.js';
import type { DeviceAccess } from '../DeviceAccess.js';
import type { EvidenceCapture } from '../EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenViaDriver } from '../ScreenReader.js';
import type { SessionBroker } from '../SessionBroker.js';
import { together } from '../together.js';

const REF_GENERATIONS_TEXT = String(REF_GENERATIONS);

function stale(why: string): HarnessError {
  return new HarnessError('STALE_REF', `The screen changed since ui_get_tree: read it again (${why}). Nothing was tapped or typed.`);
}

/** The target as the model sent it: `{ref}` or the normalised selector. */
function echo(target: ActionTarget): Record<string, unknown> {
  return isRefTarget(target) ? { ref: target.ref } : selectorToWire(target.selector);
}

/** CONTRACT §7: each find waits up to 10 s. */
export const FIND_TIMEOUT_MS = 10_000;
/** CONTRACT §7: a 300 ms swipe through the centre, between 75 % and 25 % of the height. */
export const SWIPE_DURATION_MS = 300;
const SWIPE_FAR = 0.75;
const SWIPE_NEAR = 0.25;

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
    private readonly refs: RefRegistry,
  ) {}

  tap(context: OperationContext, target: ActionTarget, sessionId?: string): Promise<Outcome> {
    return this.act(context, 'ui-tap', sessionId, async (device, session) => {
      const { element, name } = await this.findTarget(device, session, target);
      // Read before the click: the click may navigate away from the element.
      const label = name ?? (await session.elementLabel(element));
      await session.click(element);
      return { target: echo(target), element_label: label };
    });
  }

  typeText(context: OperationContext, target: ActionTarget, text: string, sessionId?: string): Promise<Outcome> {
    return this.act(context, 'ui-type', sessionId, async (device, session) => {
      const { element } = await this.findTarget(device, session, target);
      await session.typeText(element, text);
      return { target: echo(target), characters_sent: codePointLength(text) };
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

  /**
   * The element, and for a ref its name as the summary gives it (label, else selector value) on the
   * screen just read: the ref names the actionable node, whose own text is often empty (a row whose
   * label sits in a child), so reading the element's text would say less than the entry did.
   */
  private async findTarget(
    device: DeviceGateway,
    session: AutomationSession,
    target: ActionTarget,
  ): Promise<{ element: ElementRef; name: string | null }> {
    if (isRefTarget(target)) return this.findRef(device, session, target.ref);
    return { element: await this.find(device, session, target.selector), name: null };
  }

  /**
   * A ref acts only on the element it was given to (issue 13): the screen is read again through
   * the session that will act (its page source, the tree the driver's XPath runs over, and the
   * foreground through adb), the node at the ref's place must still be that element, and the
   * find names exactly that node (position and bounds). Anything else is STALE_REF, and nothing
   * is touched.
   */
  private async findRef(device: DeviceGateway, session: AutomationSession, ref: string): Promise<{ element: ElementRef; name: string }> {
    const known = this.refs.lookup(ref);
    if ('missing' in known) {
      throw stale(
        known.missing === 'forgotten'
          ? `ref ${ref} is older than the last ${REF_GENERATIONS_TEXT} ui_get_tree answers and is forgotten`
          : `ref ${ref} was never given by this server (it may come from before a restart)`,
      );
    }
    const reading = await readScreenViaDriver(device, session);
    const node = locateIdentity(reading.tree, reading.window, known.identity);
    if (!node) throw stale(`the element of ref ${ref} is no longer where ui_get_tree saw it`);
    const b = node.bounds;
    if (b === null || b.right <= b.left || b.bottom <= b.top) {
      // The driver taps an element at the centre of its visible bounds; with no visible area (a row
      // clipped out of its list reports an empty or inverted rectangle) that point lies outside it,
      // on something else. Refused before anything is sent.
      throw new HarnessError(
        'UI_ELEMENT_NOT_FOUND',
        `The element of ref ${ref} has no visible area (it is clipped out of view), so a tap would land on something else. ` +
          `Scroll it into view (ui_scroll), call ui_get_tree again and use the new entry's ref. Nothing was tapped or typed.`,
      );
    }
    // The node is on the screen the driver just read: one look is enough, no 10 s wait.
    const element = await session.findElement(refLocator(reading.tree, node), 0);
    if (!element) throw stale(`the element of ref ${ref} moved while the harness was about to act`);
    const plan = reading.plans.find((p) => p.node === node);
    return { element, name: plan ? nameOfEntry(plan.entry) : '' };
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
