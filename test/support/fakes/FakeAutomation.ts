import type { AutomationEndpointStatus, SeleniumGridEndpointStatus } from '../../../src/domain/automationEndpoint.js';
import { HarnessError } from '../../../src/domain/errors.js';
import type {
  AutomationGateway,
  AutomationSession,
  DriverDeviceCommand,
  DriverDeviceCommandArgs,
  ElementRef,
  Locator,
  SessionOptions,
  TypeOutcome,
} from '../../../src/domain/ports.js';
import type { SwipePath } from '../../../src/domain/gestures/scrollGesture.js';
import type { Point } from '../../../src/domain/tree/uiNode.js';
import { settingsAppsDump } from './screens.js';

type SessionMethod = Exclude<keyof AutomationSession, 'id'>;

/** One fake Appium session; what it finds is decided by `elements` (locator value → label). */
export class FakeSession implements AutomationSession {
  readonly calls: string[] = [];
  closed = false;
  readonly typed: string[] = [];
  readonly swipes: SwipePath[] = [];
  /** Each findElements call's wait, in order (0: one look). */
  readonly findWaits: number[] = [];

  constructor(
    readonly id: string,
    private readonly owner: FakeAutomation,
  ) {}

  private async answer<T>(name: SessionMethod, value: () => T): Promise<T> {
    this.calls.push(name);
    this.owner.log.push(`${this.id}:${name}`);
    await Promise.resolve();
    if (this.owner.hang.has(name)) return new Promise<T>(() => undefined);
    const failure = this.owner.failWith[name];
    if (failure) throw failure;
    return value();
  }

  findElement(locator: Locator, _timeoutMs: number): Promise<ElementRef | null> {
    return this.answer('findElement', () => {
      this.owner.locators.push(locator);
      const label = this.owner.find(locator);
      return label === undefined ? null : { id: `el:${label}` };
    });
  }
  findElements(locator: Locator, timeoutMs: number): Promise<readonly ElementRef[]> {
    this.findWaits.push(timeoutMs);
    return this.answer('findElements', () => {
      this.owner.locators.push(locator);
      return this.owner.findAll(locator).map((label) => ({ id: `el:${label}` }));
    });
  }
  elementLabel(element: ElementRef): Promise<string> {
    return this.answer('elementLabel', () => element.id.slice(3));
  }
  elementText(element: ElementRef): Promise<string> {
    return this.answer('elementText', () => element.id.slice(3));
  }
  elementPlace(element: ElementRef): Promise<{ className: string; bounds: string; packageName?: string }> {
    return this.answer(
      'elementPlace',
      () => this.owner.places.get(element.id.slice(3)) ?? { className: '', bounds: '' },
    );
  }
  elementBounds(element: ElementRef): Promise<{ bounds: string; packageName?: string }> {
    return this.answer('elementBounds', () => {
      const place = this.owner.places.get(element.id.slice(3)) ?? { className: '', bounds: '' };
      return { bounds: place.bounds, ...(place.packageName !== undefined ? { packageName: place.packageName } : {}) };
    });
  }
  isFocused(element: ElementRef): Promise<boolean> {
    return this.answer('isFocused', () => this.owner.focused.has(element.id.slice(3)));
  }
  /** Every long click's hold, in order. */
  readonly longClicks: number[] = [];
  longClick(_element: ElementRef, holdMs: number): Promise<void> {
    return this.answer('longClick', () => {
      this.longClicks.push(holdMs);
    });
  }
  click(element: ElementRef): Promise<void> {
    // A tap on a field focuses it, as on a device.
    return this.answer('click', () => void this.owner.focused.add(element.id.slice(3)));
  }
  typeText(element: ElementRef, text: string): Promise<TypeOutcome> {
    return this.answer('typeText', () => {
      const label = element.id.slice(3);
      if (!this.owner.takesText(label, this.owner.focused.has(label))) return 'refused';
      this.typed.push(text);
      return 'typed';
    });
  }
  /** Every press at a computed point, in order. */
  readonly presses: { point: Point; holdMs: number }[] = [];
  pressAt(point: Point, holdMs: number): Promise<void> {
    return this.answer('pressAt', () => {
      this.presses.push({ point, holdMs });
    });
  }
  swipe(path: SwipePath): Promise<void> {
    return this.answer('swipe', () => {
      this.swipes.push(path);
      this.owner.onSwipe(path);
    });
  }
  windowSize(): Promise<{ width: number; height: number }> {
    return this.answer('windowSize', () => ({ width: 1080, height: 2400 }));
  }
  back(): Promise<void> {
    return this.answer('back', () => this.owner.onBack());
  }
  /** Key codes pressed through `mobile: pressKey` (device_key). */
  readonly keys: number[] = [];
  pressKey(keycode: number): Promise<void> {
    return this.answer('pressKey', () => {
      this.keys.push(keycode);
    });
  }
  /** Shade pulls and orientations asked for (notifications_open, device_rotate). */
  readonly shadePulls: number[] = [];
  readonly orientations: string[] = [];
  openNotifications(): Promise<void> {
    return this.answer('openNotifications', () => {
      this.shadePulls.push(1);
    });
  }
  setOrientation(orientation: 'PORTRAIT' | 'LANDSCAPE'): Promise<void> {
    return this.answer('setOrientation', () => {
      this.orientations.push(orientation);
    });
  }
  pageSource(): Promise<string> {
    return this.answer('pageSource', () => this.owner.source);
  }
  screenshot(): Promise<Buffer> {
    return this.answer('screenshot', () => this.owner.screenshotPng);
  }
  /** Every `mobile:` command sent (remote mode), with its arguments, in order. */
  readonly executed: { command: DriverDeviceCommand; args: unknown }[] = [];
  execute<C extends DriverDeviceCommand>(command: C, args: DriverDeviceCommandArgs[C]): Promise<unknown> {
    return this.answer('execute', () => {
      this.executed.push({ command, args });
      return this.owner.driverAnswers[command];
    });
  }
  close(): Promise<void> {
    this.calls.push('close');
    this.owner.log.push(`${this.id}:close`);
    this.closed = true;
    this.owner.open.delete(this.id);
    return Promise.resolve();
  }
}

/**
 * An in-memory Appium. `open` holds the ids of sessions not yet closed, which is what
 * the no-orphans checks look at. `pendingOpen` makes openSession wait for the test.
 */
export class FakeAutomation implements AutomationGateway {
  readonly log: string[] = [];
  readonly locators: Locator[] = [];
  readonly open = new Map<string, FakeSession>();
  readonly sessions: FakeSession[] = [];
  /** What each openSession was asked for, in order (the driver's idle timeout). */
  readonly openOptions: SessionOptions[] = [];
  version = '3.8.0';
  /** When set, the endpoint answers as this Selenium Grid instead of as Appium `version`. */
  grid: SeleniumGridEndpointStatus | null = null;
  source = settingsAppsDump();
  /** What the driver's screenshot answers (remote mode's screen_capture); empty unless a test gives a PNG. */
  screenshotPng: Buffer = Buffer.alloc(0);
  /** What each `mobile:` command answers (remote mode); unset: undefined, as a driver's null value. */
  driverAnswers: Partial<Record<DriverDeviceCommand, unknown>> = {};
  /** Locator value → label of the element it finds; anything else finds nothing. */
  elements = new Map<string, string>();
  /** Label → class and bounds the element reports (ui_scroll's named container); none: empty. */
  readonly places = new Map<string, { className: string; bounds: string; packageName?: string }>();
  /** Labels of the elements that have input focus (a click adds one). */
  readonly focused = new Set<string>();
  /** Whether an element takes a set-text (by label, and whether it has focus); `refused` otherwise. */
  takesText: (label: string, focused: boolean) => boolean = () => true;
  /** Runs after each swipe: a test changes `source` here to make the content move. */
  onSwipe: (path: SwipePath) => void = () => undefined;
  /** What Back does to the device, for a test that checks an answer follows from the press itself. */
  onBack: () => void = () => undefined;
  hang: Set<SessionMethod> = new Set();
  failWith: Partial<Record<SessionMethod, HarnessError>> = {};
  statusFailure: HarnessError | null = null;
  openFailure: HarnessError | null = null;
  /** When set, openSession waits until the test calls `release()`. */
  holdOpen = false;
  private releases: (() => void)[] = [];
  private counter = 0;

  find(locator: Locator): string | undefined {
    return this.elements.get(locator.value);
  }

  /** Locator value → labels of further elements it finds after the first (a selector that names several). */
  readonly twins = new Map<string, string[]>();

  findAll(locator: Locator): string[] {
    const first = this.find(locator);
    return first === undefined ? [] : [first, ...(this.twins.get(locator.value) ?? [])];
  }

  status(): Promise<AutomationEndpointStatus> {
    this.log.push('status');
    if (this.statusFailure) return Promise.reject(this.statusFailure);
    return Promise.resolve(this.grid ?? { kind: 'appium', version: this.version, ready: true });
  }

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    this.log.push('openSession');
    this.openOptions.push(options);
    if (this.openFailure) throw this.openFailure;
    if (this.holdOpen) await new Promise<void>((resolve) => this.releases.push(resolve));
    this.counter += 1;
    const session = new FakeSession(`s${this.counter}`, this);
    this.open.set(session.id, session);
    this.sessions.push(session);
    return session;
  }

  /** Lets every held openSession finish. */
  release(): void {
    const pending = this.releases;
    this.releases = [];
    for (const resolve of pending) resolve();
  }

  listSessionIds(): Promise<string[]> {
    return Promise.resolve([...this.open.keys()]);
  }
}

export const NOT_INSTALLED = new HarnessError('APPIUM_UNAVAILABLE', 'Appium does not answer at http://127.0.0.1:4723.');
