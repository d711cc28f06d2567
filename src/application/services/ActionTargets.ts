import { parseBounds, parseDump } from '../../domain/tree/dump.js';
import { HarnessError } from '../../domain/errors.js';
import { buildLocator } from '../../domain/selectors/locator.js';
import { notFoundMessage } from '../../domain/summary/notFound.js';
import { matchSelector } from '../../domain/selectors/matcher.js';
import { pressTargets } from '../../domain/selectors/pressTargets.js';
import {
  ambiguousMessage,
  candidateFacts,
  movedWhileCountingMessage,
} from '../../domain/selectors/ambiguousMessage.js';
import type { AutomationSession, DeviceGateway, ElementRef, Logger } from '../../domain/ports.js';
import { nameOfEntry, type ActionEntry, type WindowState } from '../../domain/tree/screen.js';
import type { Rect } from '../../domain/tree/uiNode.js';
import { expandIds, hasIdTerm, selectorToWire, type Selector } from '../../domain/selectors/selector.js';
import { actedElementOfPlan, type ActedElement } from '../../domain/summary/actedElement.js';
import { packageOfRoots } from '../../domain/summary/summary.js';
import { isRefTarget, type ActionTarget } from '../../domain/refs/refTarget.js';
import { locateIdentity, refLocator } from '../../domain/refs/refIdentity.js';
import { REF_GENERATIONS, originWords, refsByNode, type RefOrigin, type RefRegistry } from '../screen/RefRegistry.js';
import { densityOf, readScreenViaDriver, readScreenWith, type DigestedEntry } from '../screen/ScreenReader.js';

const REF_GENERATIONS_TEXT = String(REF_GENERATIONS);

function stale(ref: string, origin: RefOrigin, why: string): HarnessError {
  return new HarnessError(
    'STALE_REF',
    `The screen changed since ${originWords(origin)} gave ref ${ref}: read it again with ui_get_tree (${why}). Nothing was tapped or typed.`,
  );
}

/** A visual ref gone stale: visual refs come only from ui_get_tree and live one read. */
export function staleVisual(why: string): HarnessError {
  return new HarnessError(
    'STALE_REF',
    `The screen changed since ui_get_tree: read it again (${why}). Nothing was tapped or typed.`,
  );
}

/**
 * A ref the registry does not hold. Forgotten: the screen was read again since. Never issued: it
 * comes from another server process (refs, like session ids, live as long as the process that gave
 * them; a client that starts the server for every call cannot carry one over).
 */
function unknownRefError(ref: string, missing: 'forgotten' | 'never-issued'): HarnessError {
  if (missing === 'forgotten')
    return new HarnessError(
      'STALE_REF',
      `Ref ${ref} is older than the last ${REF_GENERATIONS_TEXT} screen reads (ui_get_tree answers and actions' \`after\`) and is forgotten: read the screen again with ui_get_tree and send a ref from its answer. Nothing was tapped or typed.`,
    );
  return new HarnessError(
    'STALE_REF',
    `Ref ${ref} was never given by this server process: refs, like session ids, live only as long as the server that gave them (a client that starts a new server for each call cannot reuse them). Call ui_get_tree and send a ref from its answer. Nothing was tapped or typed.`,
  );
}

/** The target as the model sent it: `{ref}` or the normalised selector. */
export function echo(target: ActionTarget): Record<string, unknown> {
  return isRefTarget(target) ? { ref: target.ref } : selectorToWire(target.selector);
}

/**
 * A found element, and its name when the target already says it (a ref: as the summary gives it; a
 * `text` selector: that text), and for a ref what the screen just read says about its place (its
 * bounds, the keyboard and the bars), so a tap need not read them again.
 */
export interface FoundTarget {
  readonly element: ElementRef;
  readonly name: string | null;
  readonly bounds?: Rect;
  readonly window?: WindowState;
  readonly packageName?: string;
  /** For a ref, the node's class as the screen just read gives it. */
  readonly className?: string;
  /** For a ref, the element as the screen just read gives it, for the run's trace (actedElement.ts). */
  readonly acted?: ActedElement;
  /** For a ref, its entry as the screen just read offers it (its role says whether a tap does anything). */
  readonly entry?: ActionEntry;
}

/** An element's bounds (null: the driver gave none) and the package of its window, as a press plans with them. */
export interface ElementPlace {
  readonly bounds: Rect | null;
  readonly packageName?: string;
}

/** Finding what an action acts on: a ref checked against the screen, or a selector found by the driver. */
export class ActionTargets {
  constructor(
    private readonly refs: RefRegistry,
    private readonly logger: Logger,
    /** ANDROID_MCP_FIND_TIMEOUT (10 s by default): how long a selector's find waits for its element. */
    private readonly findTimeoutMs: number,
  ) {}

  /** Where the element is: for a ref, from the screen just read; else its bounds and package from the driver. */
  placeOf(session: AutomationSession, found: FoundTarget): Promise<ElementPlace> {
    if (found.bounds) return Promise.resolve({ bounds: found.bounds, packageName: found.packageName });
    return session
      .elementBounds(found.element)
      .then((p) => ({ bounds: parseBounds(p.bounds), packageName: p.packageName }));
  }

  /**
   * The element, and for a ref its name as the summary gives it (label, else selector value) on the
   * screen just read: the ref names the actionable node, whose own text is often empty (a row whose
   * label sits in a child), so reading the element's text would say less than the entry did.
   */
  async findTarget(
    device: DeviceGateway,
    session: AutomationSession,
    target: ActionTarget,
    window: WindowState,
    inSession: boolean,
  ): Promise<FoundTarget> {
    // In a session open before this call (a UI session, or the warm one kept), the lock check's
    // `dumpsys window`, read moments ago in this call, is the ref's window too.
    if (isRefTarget(target)) return this.findRef(device, session, target.ref, inSession ? window : undefined);
    // A `text` selector matches the text exactly and never a password field (locator.ts): the element's
    // label is that text, with no round trip to read it.
    const { key, value } = target.selector.target;
    const name = key === 'text' ? value : null;
    if (!inSession) return { element: await this.find(device, session, target.selector, window), name };
    // Found at the first look, the screen has not moved since the check: its window (the keyboard,
    // the bars) is what the press plans with. A find that had to wait reads the window again.
    const resolved = await this.resolve(session, target.selector, window);
    const atOnce = await session.findElements(buildLocator(resolved), 0);
    if (atOnce.length > 0)
      return { element: await this.onlyOne(device, session, target.selector, resolved, atOnce, window), name, window };
    return { element: await this.find(device, session, target.selector, window), name };
  }

  /**
   * A ref acts only on the element it was given to: the screen is read again through
   * the session that will act (its page source, the tree the driver's XPath runs over, and the
   * foreground through adb), the node at the ref's place must still be that element, and the
   * find names exactly that node (position and bounds). Anything else is STALE_REF, and nothing
   * is touched.
   */
  private async findRef(
    device: DeviceGateway,
    session: AutomationSession,
    ref: string,
    window?: WindowState,
  ): Promise<FoundTarget & { name: string }> {
    const known = this.refs.lookup(ref);
    if ('missing' in known) throw unknownRefError(ref, known.missing);
    if ('visual' in known)
      throw new HarnessError(
        'INVALID_SELECTOR',
        `Ref ${ref} names text read from the screen's pixels, not an element: it can only be tapped or long-pressed (ui_tap). Nothing was typed.`,
      );
    const reading = window
      ? await readScreenWith(session.pageSource(), densityOf(device, window), window)
      : await readScreenViaDriver(device, session);
    const node = locateIdentity(reading.tree, reading.window, known.identity);
    if (!node) throw stale(ref, known.origin, 'its element is no longer where that read saw it');
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
    // The node is on the screen the driver just read: one look is enough, no find wait.
    const element = await session.findElement(refLocator(reading.tree, node), 0);
    if (!element) throw stale(ref, known.origin, 'its element moved while the harness was about to act');
    const plan = reading.plans.find((p) => p.node === node);
    return {
      element,
      name: plan ? nameOfEntry(plan.entry) : '',
      bounds: b,
      window: reading.window,
      packageName: node.packageName,
      className: node.className,
      ...(plan
        ? {
            entry: plan.entry,
            acted: actedElementOfPlan(
              reading.tree,
              reading.plans,
              plan,
              reading.window.foregroundPackage ?? node.packageName,
            ),
          }
        : {}),
    };
  }

  /**
   * A ref the registry does not hold is refused before the lock, the lock-screen read, Appium or
   * any evidence: nothing on the device can make it valid, so a one-shot client gets its answer at once.
   */
  unknownRef(target: ActionTarget): HarnessError | null {
    if (!isRefTarget(target)) return null;
    const known = this.refs.lookup(target.ref);
    return 'missing' in known ? unknownRefError(target.ref, known.missing) : null;
  }

  /** The line a visual ref names (RefRegistry), or the error for one it does not hold. */
  visualOf(ref: string): DigestedEntry {
    const known = this.refs.lookup(ref);
    if ('visual' in known) return known.visual;
    if ('missing' in known) throw unknownRefError(ref, known.missing);
    throw staleVisual(`ref ${ref} no longer names text read from the screen`);
  }

  /** The selector with its `id` terms expanded for the package in front (selector.ts, expandIds). */
  private async resolve(session: AutomationSession, selector: Selector, window: WindowState): Promise<Selector> {
    return hasIdTerm(selector) ? expandIds(selector, await this.packageForIds(session, window)) : selector;
  }

  /**
   * The one element the selector names, waiting up to the find timeout (10 s by default) for it; not found, with what the screen
   * offers instead; several, refused as UI_ELEMENT_AMBIGUOUS (onlyOne).
   */
  async find(
    device: DeviceGateway,
    session: AutomationSession,
    selector: Selector,
    window: WindowState,
  ): Promise<ElementRef> {
    const resolved = await this.resolve(session, selector, window);
    const elements = await session.findElements(buildLocator(resolved), this.findTimeoutMs);
    if (elements.length > 0) return this.onlyOne(device, session, selector, resolved, elements, window);
    throw new HarnessError('UI_ELEMENT_NOT_FOUND', notFoundMessage(selector, await this.offers(device, session)));
  }

  /**
   * One element or none (docs/reference/contract.md): the driver's find answered every match of the locator the
   * press uses. One match is the element. Several are told apart on the page source read right
   * after through the same session, by the domain's mirror of that locator (matcher.ts): matches
   * that press the same element (a row's title and the row) are one; two or more elements are
   * refused before anything is pressed, each named by the ref this read gives it.
   */
  private async onlyOne(
    device: DeviceGateway,
    session: AutomationSession,
    selector: Selector,
    resolved: Selector,
    elements: readonly ElementRef[],
    window: WindowState,
  ): Promise<ElementRef> {
    const [first] = elements;
    if (first && elements.length === 1) return first;
    const reading = await readScreenViaDriver(device, session);
    const targets = pressTargets(matchSelector(reading.tree, resolved));
    const foreground = reading.summary.foreground_package || window.foregroundPackage || undefined;
    if (first && targets.length === 1) return first;
    if (targets.length === 0)
      throw new HarnessError('UI_ELEMENT_AMBIGUOUS', movedWhileCountingMessage(selector, elements.length, foreground));
    // The refs of this read, as ui_get_tree would give them (the same element keeps its ref).
    const refOf = refsByNode(reading.plans, this.refs.attach(reading, 'refusal'));
    const candidates = candidateFacts(resolved, targets).map((facts) => ({
      facts,
      ref: refOf.get(facts.target.element) ?? null,
    }));
    this.logger.info('refused an ambiguous selector', { candidates: candidates.length });
    throw new HarnessError('UI_ELEMENT_AMBIGUOUS', ambiguousMessage(selector, candidates, foreground));
  }

  /**
   * What an `id` stands for: the foreground package of the dumpsys read taken before
   * the action, as the summary names it; when dumpsys told none, the page source's first app
   * window (the summary's own fallback).
   */
  private async packageForIds(session: AutomationSession, window: WindowState): Promise<string> {
    const name = window.foregroundPackage || packageOfRoots(parseDump(await session.pageSource()));
    if (name !== '') return name;
    throw new HarnessError(
      'UI_ELEMENT_NOT_FOUND',
      'An "id" names a resource id of the app in front, and no app could be read in front. Call ui_get_tree, then send the entry\'s ref (or its full resource_id). Nothing was tapped or typed.',
    );
  }

  async offers(device: DeviceGateway, session: AutomationSession): Promise<readonly ActionEntry[]> {
    return this.readOffers(device, session, false);
  }

  /** The offers with the refs this read gives them (a refusal that points at a field names it by ref). */
  async offersWithRefs(device: DeviceGateway, session: AutomationSession): Promise<readonly ActionEntry[]> {
    return this.readOffers(device, session, true);
  }

  private async readOffers(
    device: DeviceGateway,
    session: AutomationSession,
    withRefs: boolean,
  ): Promise<readonly ActionEntry[]> {
    try {
      const reading = await readScreenViaDriver(device, session);
      return withRefs ? this.refs.attach(reading, 'refusal').actions : reading.summary.actions;
    } catch (error) {
      // The message is still useful without the offers; the failure itself is what matters.
      this.logger.warn('could not read the screen for the not-found message', { cause: String(error) });
      return [];
    }
  }
}
