import { parseBounds, parseDump } from '../../domain/tree/dump.js';
import { codePointLength, isTextFieldClass, toBox } from '../../domain/tree/nodeFacts.js';
import { HarnessError } from '../../domain/errors.js';
import type { AutomationSession, Clock, DeviceGateway, Logger } from '../../domain/ports.js';
import { notEditableMessage, refusedTextMessage } from '../../domain/refusedText.js';
import {
  nameOfEntry,
  roleOfEntry,
  selectorOfEntry,
  type ActionEntry,
  type WindowState,
} from '../../domain/tree/screen.js';
import { isUnchangedAfter } from '../../domain/summary/screenDiff.js';
import {
  centreOf,
  coveredMessage,
  noAreaMessage,
  obstructionsOf,
  planTap,
  type TapPlan,
} from '../../domain/gestures/tapPoint.js';
import { contentSignature, mainContainer, planScroll, swipeArea } from '../../domain/gestures/scrollGesture.js';
import { containerOf, nodeOfElement, orientationOfDirection } from '../../domain/summary/scrollables.js';
import {
  namedGoneMessage,
  namedHiddenMessage,
  namedNotScrollableMessage,
  namedWrongOrientationMessage,
  noContainerMessage,
} from '../../domain/gestures/scrollRefusal.js';
import type { Rect, UiNode } from '../../domain/tree/uiNode.js';
import { selectorToWire, type Selector } from '../../domain/selectors/selector.js';
import { isRefTarget, isVisualRef, type ActionTarget } from '../../domain/refs/refTarget.js';
import { actedElementOfSelector, type ActedElement } from '../../domain/summary/actedElement.js';
import type { RefRegistry } from '../screen/RefRegistry.js';
import { DEVICE_KEYS, type DeviceKey, type Orientation } from '../../domain/toolsetArguments.js';
import type { ScrollDirection } from '../../domain/gestures/scrollDirection.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { ActionEvidence } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { readScreenViaDriver } from '../screen/ScreenReader.js';
import { readSettledForeground, type SettledForeground } from '../screen/settledForeground.js';
import { together } from '../time/together.js';
import { notePowerAfterAction, requireUsableScreen } from '../screen/screenLock.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { ActionTargets, echo, staleVisual, type ElementPlace, type FoundTarget } from './ActionTargets.js';
import type { VisualReader } from '../screen/VisualReader.js';
import { afterOf, observed, readSettledScreen, type SettledScreen } from '../screen/settledScreen.js';

/** What each action is called in a DEVICE_LOCKED message. */
const ACTION_NAMES: Readonly<Record<string, string>> = {
  'ui-tap': 'the tap',
  'ui-long-press': 'the long press',
  'ui-type': 'the typing',
  'ui-scroll': 'the scroll',
  'device-back': 'Back',
  'device-key': 'the key press',
  'notifications-open': 'opening the notification shade',
  'device-rotate': 'turning the screen',
};

/**
 * The trace's record of the element an action found: for a ref the one the screen read gave
 * (ActionTargets), else what the driver said of it, with the selector that named it.
 */
function actedOf(
  found: FoundTarget,
  target: ActionTarget,
  label: string,
  place: ElementPlace,
  window: WindowState,
  className?: string,
): ActedElement | null {
  if (found.acted) return found.acted;
  if (isRefTarget(target) || place.bounds === null) return null;
  return actedElementOfSelector({
    selector: target.selector,
    label,
    bounds: toBox(place.bounds),
    packageName: place.packageName ?? window.foregroundPackage ?? '',
    foreground: window.foregroundPackage ?? place.packageName ?? '',
    ...(className ? { className } : {}),
  });
}

/** What a selector says its element is called: its target's value (a typed field is named by it, no read needed). */
function selectorLabel(target: { readonly selector: Selector }): string {
  return target.selector.target.value;
}

/** The package of the status and navigation bars' windows. */
const SYSTEM_UI = 'com.android.systemui';

/** Reads `after` once the foreground has settled (null with `observe: false`). */
/**
 * Reads `after` once the foreground has settled. `early`: a page source asked for beside the first
 * foreground read, used as the first reading when that read settled the foreground (the same moment).
 */
type ObserveScreen = (
  foreground: SettledForeground,
  early?: Promise<string> | null,
) => Promise<SettledScreen | HarnessError | null>;

/** What the end of an action read: the settled foreground, the evidence, and `after`'s screen. */
interface ActionTail {
  readonly foreground: SettledForeground;
  readonly written: ActionEvidence;
  readonly seen: SettledScreen | HarnessError | null;
}

/**
 * How the foreground is read after an action. `back`: PressBack returns before the
 * window focus has moved, so the package in front before Back is read first and the foreground
 * afterwards until it settles. `focused`: the server waited for idle after the action, so one
 * read suffices unless no window has focus yet.
 */
type AfterAction = 'back' | 'focused';

/**
 * How long a long press holds. Android turns a press into a long press once it is
 * held for ViewConfiguration.getLongPressTimeout(): 500 ms by default on older releases, 400 ms
 * on newer ones, 1 s or 1.5 s when the user picked a longer "Touch & hold delay". The server's
 * own default holds exactly the timeout, which races the press's UP; Espresso holds 1.5× the
 * timeout for that reason. 1.5 s is 3× the longest default and 1.5× the 1 s setting.
 */
export const LONG_PRESS_HOLD_MS = 1_500;

/** ui_tap's `hint` when the tapped entry takes only a long press and the screen did not change. */
export const LONG_PRESS_HINT =
  "The screen did not change: this element takes a long press only (its entry's role is long-press). Send ui_tap again with long_press: true.";

/**
 * The four driver actions: ui_tap, ui_type_text, ui_scroll, device_back. Each runs on
 * the UI session's Appium session or a temporary one, reports the foreground package read through
 * adb afterwards (`foreground_settled: false` when it had not settled within the bound),
 * and leaves a screenshot as evidence (a `failure-<label>` one when it fails after
 * reaching the device).
 */
export class UiActionService {
  private readonly targets: ActionTargets;

  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
    logger: Logger,
    private readonly clock: Clock,
    refs: RefRegistry,
    private readonly reads: ScreenReads,
    /** ANDROID_MCP_FIND_TIMEOUT: how long a selector's find waits for its element (ActionTargets). */
    findTimeoutMs: number,
    /** Absent: a visual ref cannot be checked against the pixels, so it is refused as stale. */
    private readonly visual?: VisualReader,
  ) {
    this.targets = new ActionTargets(refs, logger, findTimeoutMs);
  }

  tap(
    context: OperationContext,
    target: ActionTarget,
    sessionId?: string,
    longPress = false,
    observe = true,
  ): Promise<Outcome> {
    const unknown = this.targets.unknownRef(target);
    if (unknown) return Promise.reject(unknown);
    if (isRefTarget(target) && isVisualRef(target.ref))
      return this.tapVisual(context, target.ref, sessionId, longPress, observe);
    // Where the pressed element was and what it was, for the run's trace (a person's view and the
    // exporter's record, src/domain/summary/actedElement.ts), never the answer.
    let pressed: Rect | null = null;
    let acted: ActedElement | null = null;
    let longPressOnly = false;
    const outcome = this.act(
      context,
      longPress ? 'ui-long-press' : 'ui-tap',
      { sessionId, observe },
      async (device, session, window, inSession) => {
        const found = await this.targets.findTarget(device, session, target, window, inSession);
        const { element, name } = found;
        // Read before the click: the click may navigate away from the element. The label and the
        // element's place are independent reads: asked at once, their round trips overlap.
        const [own, place] = await together(
          name !== null ? Promise.resolve(name) : session.elementLabel(element),
          this.targets.placeOf(session, found),
        );
        // What the last read offered for this target: its name when the element says nothing itself
        // (a Switch named by its row's title), and its role (a long-press-only row does nothing on a tap).
        const offered = found.entry ?? this.offeredEntry(device, target);
        const label = own !== '' ? own : offered ? nameOfEntry(offered) : '';
        longPressOnly = !longPress && offered !== undefined && roleOfEntry(offered) === 'long-press';
        pressed = place.bounds;
        acted = actedOf(found, target, label, place, window);
        const plan = await this.press(device, session, found, target, { longPress, whenHidden: 'refuse' }, place);
        return {
          target: echo(target),
          element_label: label,
          ...(longPress ? { long_press: true } : {}),
          ...(plan.kind === 'point' ? { pressed_outside: plan.coveredBy } : {}),
        };
      },
    );
    return outcome.then((done) => {
      // A tap on an element that takes only a long press answers ok and changes nothing: say why.
      const hinted =
        longPressOnly && isUnchangedAfter((done.data as { after?: unknown }).after)
          ? { ...done, data: { ...done.data, hint: LONG_PRESS_HINT } }
          : done;
      return pressed ? { ...hinted, trace: { acted: toBox(pressed), ...(acted ? { element: acted } : {}) } } : hinted;
    });
  }

  /** The entry the device's last read offered for a selector target (the same selector), if any. */
  private offeredEntry(device: DeviceGateway, target: ActionTarget): ActionEntry | undefined {
    const last = this.reads.last(device);
    if (!last) return undefined;
    if (isRefTarget(target)) return undefined;
    const wanted = JSON.stringify(echo(target));
    const entry = last.summary.actions.find((e) => {
      const selector = selectorOfEntry(e);
      return selector !== null && JSON.stringify(selector) === wanted;
    });
    // The wire entry has no bounds; only its name and role are read here.
    return entry as ActionEntry | undefined;
  }

  /**
   * A visual ref (docs/reference/summary.md, "Visual refs"): the pixels under its box must still be
   * the ones OCR read, else it is stale; then the harness presses the centre of the box (or the part
   * of it no bar or keyboard covers), a point it computed itself. There is no element to find.
   */
  private tapVisual(
    context: OperationContext,
    ref: string,
    sessionId: string | undefined,
    longPress: boolean,
    observe: boolean,
  ): Promise<Outcome> {
    let entry;
    try {
      entry = this.targets.visualOf(ref);
    } catch (error) {
      return Promise.reject(error);
    }
    const line = entry;
    const outcome = this.act(
      context,
      longPress ? 'ui-long-press' : 'ui-tap',
      { sessionId, observe },
      async (device, session, window) => {
        if (!this.visual || (await this.visual.digestNow(device, line.bounds)) !== line.digest)
          throw staleVisual(`the pixels under visual ref ${ref} changed`);
        const plan = planTap(line.bounds, obstructionsOf(window.ime, window.systemBars));
        if (plan.kind === 'hidden')
          throw new HarnessError('UI_ELEMENT_NOT_FOUND', coveredMessage({ ref }, plan.coveredBy));
        const point = plan.kind === 'point' ? plan.point : centreOf(line.bounds);
        await session.pressAt(point, longPress ? LONG_PRESS_HOLD_MS : 0);
        return {
          target: { ref },
          element_label: line.text,
          source: 'ocr',
          ...(longPress ? { long_press: true } : {}),
          ...(plan.kind === 'point' ? { pressed_outside: plan.coveredBy } : {}),
        };
      },
    );
    return outcome.then((done) => ({ ...done, trace: { acted: toBox(line.bounds) } }));
  }

  /**
   * The driver presses the centre of the element's bounds, and a touch there goes to the
   * window on top: the open keyboard, or a system bar an edge-to-edge app draws under. Read
   * where the element is and what covers it (for a ref, from the screen just read; else its
   * bounds from the driver and the windows from `dumpsys window`), and plan the press.
   */
  private async press(
    device: DeviceGateway,
    session: AutomationSession,
    found: FoundTarget,
    target: ActionTarget,
    how: { readonly longPress: boolean; readonly whenHidden: 'refuse' | 'skip' },
    known?: ElementPlace,
  ): Promise<TapPlan | { readonly kind: 'no_area' }> {
    const { longPress } = how;
    const place = known ?? (await this.targets.placeOf(session, found));
    const bounds = place.bounds;
    if (bounds && (bounds.right <= bounds.left || bounds.bottom <= bounds.top)) {
      // No visible area (a row clipped out of its list): the driver's centre would lie outside it,
      // on something else. The summary says so (not_actionable: no_area) and offers no ref.
      if (how.whenHidden === 'refuse') throw new HarnessError('UI_ELEMENT_NOT_FOUND', noAreaMessage(echo(target)));
      return { kind: 'no_area' };
    }
    const window = bounds ? (found.window ?? (await device.getWindowState())) : null;
    // System UI's own nodes (the bars' buttons) are in the bars' windows: the bars do not cover them.
    const bars = place.packageName === SYSTEM_UI ? undefined : window?.systemBars;
    const plan: TapPlan = bounds && window ? planTap(bounds, obstructionsOf(window.ime, bars)) : { kind: 'centre' };
    if (plan.kind === 'hidden') {
      if (how.whenHidden === 'refuse')
        throw new HarnessError('UI_ELEMENT_NOT_FOUND', coveredMessage(echo(target), plan.coveredBy));
      return plan;
    }
    if (plan.kind === 'point') await session.pressAt(plan.point, longPress ? LONG_PRESS_HOLD_MS : 0);
    else if (longPress) await session.longClick(found.element, LONG_PRESS_HOLD_MS);
    else await session.click(found.element);
    return plan;
  }

  typeText(
    context: OperationContext,
    target: ActionTarget,
    text: string,
    sessionId?: string,
    observe = true,
  ): Promise<Outcome> {
    const unknown = this.targets.unknownRef(target);
    if (unknown) return Promise.reject(unknown);
    let acted: ActedElement | null = null;
    const outcome = this.act(context, 'ui-type', { sessionId, observe }, async (device, session, window, inSession) => {
      const found = await this.targets.findTarget(device, session, target, window, inSession);
      const { element } = found;
      // Refused before the focusing tap: on a button that tap would press it. A class the driver did
      // not report ('') proves nothing, so only a named class that is not a text field is refused.
      // Whether it has focus is read beside its place: independent reads, their round trips overlap.
      const [read, focused] = await together(
        found.className === undefined ? session.elementPlace(element) : Promise.resolve(null),
        session.isFocused(element),
      );
      const className = found.className ?? read?.className ?? '';
      acted =
        found.acted ??
        (read && !isRefTarget(target)
          ? actedOf(
              found,
              target,
              selectorLabel(target),
              { bounds: parseBounds(read.bounds), packageName: read.packageName },
              window,
              className,
            )
          : null);
      if (className !== '' && !isTextFieldClass(className))
        throw new HarnessError(
          'UI_ELEMENT_NOT_EDITABLE',
          notEditableMessage(target, className, await this.targets.offersWithRefs(device, session)),
        );
      // Flutter fields take set-text only while they have focus (RenderEditable offers onSetText
      // only then); a person taps a field before typing too. A focused field is left alone. The
      // tap lands on its visible part, as ui_tap's does (a chat field under the navigation bar).
      // A field with no visible part is not tapped: set-text, an accessibility action, may still take it.
      // The place just read is what the press plans with (no second read of the same attributes).
      const known = read ? { bounds: parseBounds(read.bounds), packageName: read.packageName } : undefined;
      const pressed = focused
        ? null
        : await this.press(device, session, found, target, { longPress: false, whenHidden: 'skip' }, known);
      const tapped = pressed !== null && (pressed.kind === 'centre' || pressed.kind === 'point');
      if ((await session.typeText(element, text)) === 'refused') {
        throw new HarnessError(
          'UI_ELEMENT_NOT_EDITABLE',
          refusedTextMessage(target, tapped, await this.targets.offersWithRefs(device, session)),
        );
      }
      return { target: echo(target), characters_sent: codePointLength(text) };
    });
    return outcome.then((done) => {
      const typedInto = acted as ActedElement | null;
      return typedInto ? { ...done, trace: { acted: typedInto.bounds, element: typedInto } } : done;
    });
  }

  /**
   * One page over the named container, else over the main one for the direction (the largest
   * visible scrollable that scrolls that way), started above the keyboard and clear of the
   * system bars, released slowly enough not to fling (docs/internals/device-quirks.md). `moved` compares
   * that container's content before and after: a swipe at the end of a list moves nothing.
   * A selector goes through the same find as ui_tap; the element found, or its nearest
   * scrollable ancestor, must scroll the way asked, else nothing is swiped.
   */
  scroll(
    context: OperationContext,
    direction: ScrollDirection,
    selector?: Selector,
    sessionId?: string,
    observe = true,
  ): Promise<Outcome> {
    return this.act(context, 'ui-scroll', { sessionId, observe }, async (device, session, window) => {
      const element = selector ? await this.targets.find(device, session, selector, window) : null;
      const place = element ? await session.elementPlace(element) : null;
      const before = await readScreenViaDriver(device, session);
      let screen = before.summary.screen;
      if (screen.width <= 0 || screen.height <= 0) screen = await session.windowSize();
      const scrollContext = { screen, density: before.context.density, ime: before.context.window.ime };
      const scrollables = before.summary.scrollables ?? [];
      const orientation = orientationOfDirection(direction);
      let container: UiNode | undefined;
      if (selector && place) {
        const node = nodeOfElement(before.tree, { className: place.className, bounds: parseBounds(place.bounds) });
        if (!node) throw new HarnessError('UI_ELEMENT_NOT_FOUND', namedGoneMessage(selector));
        const named = containerOf(node, direction);
        if (named.kind === 'not-scrollable')
          throw new HarnessError('UI_ELEMENT_NOT_FOUND', namedNotScrollableMessage(selector, node, scrollables));
        if (named.kind === 'wrong-orientation') {
          throw new HarnessError(
            'UI_ELEMENT_NOT_FOUND',
            namedWrongOrientationMessage(selector, direction, named.nearest, named.orientation, scrollables),
          );
        }
        if (!swipeArea(named.container, scrollContext, orientation))
          throw new HarnessError('UI_ELEMENT_NOT_FOUND', namedHiddenMessage(selector, named.container));
        container = named.container;
      } else if (orientation === 'horizontal' && !mainContainer(before.tree, scrollContext, direction)) {
        // Sideways, a blind swipe could dismiss a row or page a pager: only over a container that scrolls that way.
        throw new HarnessError('UI_ELEMENT_NOT_FOUND', noContainerMessage(direction, orientation, scrollables));
      }
      const plan = planScroll(before.tree, scrollContext, direction, container);
      await session.swipe(plan.path);
      const after = parseDump(await session.pageSource());
      const moved = contentSignature(before.tree, plan.container) !== contentSignature(after, plan.container);
      return { direction, ...(selector ? { target: selectorToWire(selector) } : {}), moved };
    });
  }

  back(context: OperationContext, sessionId?: string, observe = true): Promise<Outcome> {
    return this.act(
      context,
      'device-back',
      { sessionId, observe },
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
   * device_key: one key event through the driver (`mobile: pressKey`); `back` is
   * device_back's own PressBack. Home, Recents and Back move the focus after the call returns,
   * so the foreground is read until it settles, as after Back; Enter is read once.
   */
  key(context: OperationContext, key: DeviceKey, sessionId?: string, observe = true): Promise<Outcome> {
    return this.act(
      context,
      'device-key',
      { sessionId, observe },
      async (_device, session) => {
        if (key === 'back') await session.back();
        else await session.pressKey(DEVICE_KEYS[key]);
        return { key };
      },
      () => ({}),
      key === 'enter' ? 'focused' : 'back',
    );
  }

  /**
   * notifications_open: the driver pulls the shade down (`mobile: openNotifications`,
   * UiDevice.openNotification), then the screen is read through the same session and answered as
   * ui_get_tree answers it, refs included: a notification is tapped with ui_tap by its ref or
   * selector, and device_back closes the shade. The summary's own foreground (the app behind the
   * shade, which stays resumed) gives way to the one read through adb after, as for every action.
   */
  notifications(context: OperationContext, sessionId?: string): Promise<Outcome> {
    // The answer is the shade itself (a read of its own, the last read for a diff), so no `after` beside it.
    return this.act(context, 'notifications-open', { sessionId, observe: false }, async (device, session) => {
      await session.openNotifications();
      const reading = await readScreenViaDriver(device, session);
      return this.reads.answer(device, reading, { diff: false, origin: 'notifications_open' });
    });
  }

  /**
   * device_rotate: the WebDriver orientation endpoint, which the server turns into
   * UiAutomation.setRotation (ROTATION_270 for landscape, 0 for portrait) and waits up to 2 s for the
   * display to report it. An app that fixes its orientation keeps the display where it is, and the
   * server answers `invalid element state`: said here in the model's words.
   */
  rotate(context: OperationContext, orientation: Orientation, sessionId?: string, observe = true): Promise<Outcome> {
    return this.act(context, 'device-rotate', { sessionId, observe }, async (_device, session) => {
      try {
        await session.setOrientation(orientation === 'landscape' ? 'LANDSCAPE' : 'PORTRAIT');
      } catch (error) {
        if (!(error instanceof HarnessError) || error.code !== 'UI_ELEMENT_NOT_FOUND') throw error;
        throw new HarnessError(
          'UI_ELEMENT_NOT_FOUND',
          `The screen did not turn to ${orientation} within 2 s: the app in front fixes its orientation, or the device does not rotate. Nothing else changed; call ui_get_tree to see the screen.`,
          { cause: error },
        );
      }
      return { orientation };
    });
  }

  private async act(
    context: OperationContext,
    label: string,
    /** `observe`: answer `after`, the screen the action left (docs/reference/contract.md §2). */
    { sessionId, observe }: { readonly sessionId: string | undefined; readonly observe: boolean },
    /** `window`: the dumpsys window read before the action (its foreground package is what an `id` stands for). */
    /**
     * `inSession`: the session was open before this call (a UI session, or the warm session kept from an
     * earlier call), so `window` was read with it already there and nothing has acted since.
     */
    body: (
      device: DeviceGateway,
      session: AutomationSession,
      window: WindowState,
      inSession: boolean,
    ) => Promise<Record<string, unknown>>,
    fromForeground: (foreground: string | null) => Record<string, unknown> = () => ({}),
    after: AfterAction = 'focused',
  ): Promise<Outcome> {
    const { access, broker } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', async (device) => {
      let reachedDevice = false;
      // Behind the lock screen (or with the display off) the action would reach nothing; no session is opened for it.
      const screenBefore = await requireUsableScreen(device, ACTION_NAMES[label] ?? 'the action');
      try {
        let before: string | null = null;
        let keyboardClosed = false;
        const done = await broker.withSession(sessionId, async (session, reused) => {
          reachedDevice = true;
          // Read inside the session, right before the action: opening a session can move the focus itself
          // (the first session after boot starts io.appium.settings, which closes an open keyboard).
          // In a UI session, or a warm session kept from an earlier call, the session was already there:
          // nothing has acted since the check's read, which stands.
          let latest = screenBefore;
          before = screenBefore.foregroundPackage;
          if (!reused && (after === 'back' || screenBefore.ime.visible)) {
            const now = await device.getWindowState();
            before = now.foregroundPackage;
            keyboardClosed = screenBefore.ime.visible && !now.ime.visible;
            // The keyboard's place is what a press plans with: the newest read says where it is.
            latest = { ...screenBefore, ime: now.ime };
          }
          const data = {
            ...(await body(device, session, latest, reused)),
            ...(keyboardClosed ? { keyboard_closed_before_action: true } : {}),
          };
          const ended = this.clock.monotonicMs();
          // Inside the session: the screen is read through it, never dumped under its UiAutomation.
          const observeScreen: ObserveScreen = (foreground, early) =>
            observe
              ? observed(
                  readSettledScreen(
                    device,
                    this.clock,
                    firstThen(early && foreground.atFirstRead ? early : null, () => session.pageSource()),
                    foreground,
                    ended,
                  ),
                  (reading) => this.reads.withVisual(device, reading),
                )
              : Promise.resolve(null);
          const read =
            after === 'back'
              ? await this.settleThenCapture(device, label, before, observeScreen)
              : await this.captureWhileReading(device, label, observeScreen, () =>
                  observe ? session.pageSource() : null,
                );
          return { data, ...read };
        });
        const { data, foreground, written, seen } = done;
        const foreground_package = foreground.window.foregroundPackage;
        return {
          data: {
            ...data,
            ...fromForeground(foreground_package),
            foreground_package,
            ...(foreground.settled ? {} : { foreground_settled: false }),
            ...(seen ? { after: afterOf(this.reads, device, seen, foreground_package) } : {}),
          },
          evidence: written.ref,
        };
      } catch (error) {
        throw reachedDevice ? await this.evidence.attachFailure(device, label, error) : error;
      }
    });
  }

  /**
   * After Back: the evidence shows the screen once the focus has settled. The screenshot, the read of
   * `after` and the power read all start then and overlap: each reads the same settled screen.
   */
  private async settleThenCapture(
    device: DeviceGateway,
    label: string,
    before: string | null,
    observeScreen: ObserveScreen,
  ): Promise<ActionTail> {
    const foreground = await readSettledForeground(device, this.clock, { kind: 'changed-or-repeated', before });
    const [written, seen] = await together(
      this.evidence.capture(device, label),
      observeScreen(foreground),
      notePowerAfterAction(device, foreground.window),
    );
    return { foreground, written, seen };
  }

  /**
   * After an action the server waited for idle on: the evidence is taken at once, and while it is
   * taken (the longest read of the tail) the foreground is read, then `after` and the power state,
   * more foreground reads only while no window has focus. All settle before the call returns.
   */
  private async captureWhileReading(
    device: DeviceGateway,
    label: string,
    observeScreen: ObserveScreen,
    /** Asks for the page source now (null when `after` is not wanted). */
    source: () => Promise<string> | null,
  ): Promise<ActionTail> {
    const settleAndObserve = async (): Promise<Omit<ActionTail, 'written'>> => {
      // The page source is asked for beside the first foreground read: when that read finds a focused
      // window (the common case: the server waited for idle), the source is of the same moment and
      // `after` waits for one round trip, not two; otherwise it is dropped and read once settled.
      const early = source();
      early?.catch(() => undefined);
      const foreground = await readSettledForeground(device, this.clock, { kind: 'focused' });
      const [seen] = await together(observeScreen(foreground, early), notePowerAfterAction(device, foreground.window));
      return { foreground, seen };
    };
    const [written, rest] = await together(this.evidence.capture(device, label), settleAndObserve());
    return { ...rest, written };
  }
}

/** A source whose first read is `first` when given, and every other read a fresh one. */
function firstThen(first: Promise<string> | null, fresh: () => Promise<string>): () => Promise<string> {
  let pending = first;
  return () => {
    const read = pending ?? fresh();
    pending = null;
    return read;
  };
}
