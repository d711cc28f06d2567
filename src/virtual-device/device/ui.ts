/**
 * The device's screen state machine: the stack of screen visits (tasks by package),
 * the IME, taps with hit-testing, keys, swipes and text input. Everything that changes
 * what is on screen goes through here and is logged.
 */
import type { Action, ScreenSpec } from '../scenario/model.js';
import { NAVIGATION_BAR_HEIGHT, PHYSICAL_DENSITY, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_BAR_HEIGHT, qualifyActivity, shortActivity } from '../scenario/model.js';
import { normalizeScreen, type NormalizedScenario } from '../scenario/normalize.js';
import { KEYGUARD_SCREEN_ID } from '../scenario/keyguard.js';
import { isLandscape, relayoutRect, type DisplayRotation } from './rotation.js';
import { rotatedSize } from './traits.js';
import { displayFacts } from './windowState.js';
import { NOTIFICATION_SHADE_SCREEN_ID } from '../scenario/notificationShade.js';
import type { DeviceLogKind } from '../contracts.js';
import { center, contains, formatBounds, rectOf, type Rect } from './geometry.js';
import { listTravel, straightStroke, type TouchStroke } from './touch.js';
import { describeElement, flatten, maxScroll, newVisit, renderVisit, substitute, type RenderOptions, type UiElement, type Visit } from './uiTree.js';

export type ClickSource = 'uia2-click' | 'uia2-long-click' | 'w3c-actions' | 'input-tap' | 'input-keyevent';

export interface ClickRecord {
  readonly source: ClickSource;
  /**
   * 'long-click' only when the press was held past the long-press timeout on a long-clickable
   * node (View.performLongClick ran); a shorter press, or a long hold on a node that is not
   * long-clickable, is a 'click', as on Android.
   */
  readonly gesture: 'click' | 'long-click';
  /** How long the pointer stayed down, in ms (0 for a plain click). */
  readonly heldMs: number;
  readonly screenId: string;
  readonly x: number;
  readonly y: number;
  /** The element the client asked to click, when it named one. */
  readonly element: { readonly key: string; readonly bounds: Rect; readonly description: string } | null;
  /** The node that received the tap (topmost clickable at the point), or null. */
  readonly target: { readonly key: string; readonly bounds: Rect; readonly description: string } | null;
  /** The tap landed on the open IME. */
  readonly onKeyboard: boolean;
  /** The tap landed on a system bar: System UI took it (issue 12). Absent when it did not. */
  readonly onSystemBar?: 'status' | 'navigation';
}

/**
 * The system bar at a height, if any. Both bars' windows are System UI's and take the touches
 * inside their frames: the three-button navigation bar is touchable as a whole
 * (`TOUCHABLE_INSETS_FRAME` in SystemUI's NavigationBar), the status bar too (it pulls the shade).
 */
function systemBarAt(y: number, displayHeight: number): 'status' | 'navigation' | null {
  if (y < STATUS_BAR_HEIGHT) return 'status';
  return y >= displayHeight - NAVIGATION_BAR_HEIGHT ? 'navigation' : null;
}

export interface ForegroundInfo {
  readonly package: string;
  /** Fully qualified activity class. */
  readonly activity: string;
  readonly screenId: string;
}

export type LaunchOutcome = 'started' | 'brought-to-front' | 'no-screen';

/**
 * Issue 12: what is between the user and the app. `keyguard`: System UI's lock screen is drawn
 * over it and takes every touch and key (PhoneWindowManager sends input to the keyguard while it
 * shows); `off`: the display is off and input is dropped (`shouldDispatchInputWhenNonInteractive`).
 */
export type Cover = 'keyguard' | 'off' | null;

export interface UiHooks {
  /** A Back (key or UIA2) changed the foreground visit; `from` is what was in front before. */
  backNavigated?(from: ForegroundInfo): void;
  /** A scenario `log` action: the app writes a line (issue 16). */
  appLogged?(pkg: string, action: Extract<Action, { type: 'log' }>): void;
  /** A scenario `crash` action, before the app's screens leave the stack (issue 16). */
  appCrashed?(pkg: string, action: Extract<Action, { type: 'crash' }>, activity: string): void;
}

export class DeviceUi {
  private stack: Visit[] = [];
  private imeOpen = false;
  private cachedTree: { version: number; root: UiElement } | null = null;
  /** Bumps when the foreground visit changes (element ids go stale). */
  generation = 0;
  /** Bumps on any visible change (screenshots, caches). */
  version = 0;
  private readonly clickLog: ClickRecord[] = [];

  constructor(
    private readonly scenario: NormalizedScenario,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
    /** The effective dpi (an override wins): touch slop and fling velocities scale with it. */
    private readonly dpi: () => number = () => PHYSICAL_DENSITY,
    private readonly hooks: UiHooks = {},
    /** Read at every render: a change must bump `version` (VirtualDevice.setPasswordText does). */
    private readonly renderOptions: () => RenderOptions = () => ({ passwordText: 'bullets' }),
    /** ViewConfiguration.getLongPressTimeout() of the device. */
    private readonly longPressTimeoutMs: () => number = () => 400,
    /** Read at every render and input: a change must bump `version` (VirtualDevice.setLocked does). */
    private readonly cover: () => Cover = () => null,
    /** The active panel in its natural orientation; read at every render: a change must bump `version` (VirtualDevice.setDisplays does). */
    private readonly panel: () => { width: number; height: number } = () => ({ width: SCREEN_WIDTH, height: SCREEN_HEIGHT }),
  ) {
    this.stack = [this.visitOf(scenario.spec.home)];
    const start = scenario.spec.start;
    if (start !== undefined && start !== scenario.spec.home) this.stack.push(this.visitOf(start));
    this.imeOpen = this.top().focusedKey !== null;
  }

  private visitOf(screenId: string, params: Readonly<Record<string, string>> = {}): Visit {
    const screen = this.scenario.screens.get(screenId);
    if (!screen) throw new Error(`Unknown screen '${screenId}'. Known screens: ${[...this.scenario.screens.keys()].join(', ')}.`);
    return newVisit(screen, params);
  }

  private top(): Visit {
    const visit = this.stack[this.stack.length - 1];
    if (!visit) throw new Error('The screen stack is empty');
    return visit;
  }

  current(): Visit {
    return this.top();
  }

  foreground(): ForegroundInfo {
    const spec = this.top().screen.spec;
    return { package: spec.package, activity: qualifyActivity(spec.package, spec.activity), screenId: spec.id };
  }

  private rotation: DisplayRotation = 0;
  /** The rotation the scenario's screens were drawn for (a static dump's own); turned the other way, they are laid out again. */
  private drawnFor: DisplayRotation = 0;

  /** The display's rotation (Surface.ROTATION_*: rotation.ts). */
  displayRotation(): DisplayRotation {
    return this.rotation;
  }

  /** The display's frame in its current rotation: what screencap captures and the bounds are measured in. */
  displaySize(): { width: number; height: number } {
    return rotatedSize(this.panel(), this.rotation);
  }

  /** The display starts at this rotation, the scenario's screens drawn for it (a rotated static dump). */
  startAt(rotation: DisplayRotation): void {
    this.rotation = rotation;
    this.drawnFor = rotation;
    this.keyguard = null;
    this.version++;
  }

  /** UiAutomation.setRotation: the display turns and every window is laid out again for its new size. */
  setRotation(rotation: DisplayRotation, reason: string): void {
    if (rotation === this.rotation) return;
    const before = this.rotation;
    this.rotation = rotation;
    this.keyguard = null;
    this.version++;
    this.generation++;
    this.log('screen', `${reason}: rotation ${before}->${rotation} on ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
  }

  private layoutOptions(): RenderOptions {
    const options = this.renderOptions();
    if (isLandscape(this.rotation) === isLandscape(this.drawnFor)) return options;
    const from = rotatedSize(this.panel(), this.drawnFor);
    const to = this.displaySize();
    return { ...options, layout: (r) => relayoutRect(r, from, to) };
  }

  /** The System UI window in front (the pulled-down shade), or null when an activity's window is. */
  systemWindow(): 'NotificationShade' | null {
    return this.top().screen.spec.systemWindow ?? null;
  }

  /** The activity that stays resumed under a System UI window (the focused app), else the foreground. */
  resumedActivity(): ForegroundInfo {
    const below = [...this.stack].reverse().find((v) => v.screen.spec.systemWindow === undefined);
    if (!below) return this.foreground();
    const spec = below.screen.spec;
    return { package: spec.package, activity: qualifyActivity(spec.package, spec.activity), screenId: spec.id };
  }

  /**
   * UiDevice.openNotification (the UiAutomator2 server's OpenNotification): the global action
   * GLOBAL_ACTION_NOTIFICATIONS pulls the shade down over whatever is in front. Already down: nothing
   * changes. Returns whether the shade is down.
   */
  openNotificationShade(reason: string): boolean {
    if (this.blocked(reason)) return false;
    if (this.systemWindow() === 'NotificationShade') return true;
    this.push(this.visitOf(NOTIFICATION_SHADE_SCREEN_ID), reason);
    return true;
  }

  /** `pkg/.Act` as dumpsys and am print it. */
  foregroundComponent(short = true): string {
    const spec = this.top().screen.spec;
    return `${spec.package}/${short ? shortActivity(spec.package, spec.activity) : qualifyActivity(spec.package, spec.activity)}`;
  }

  /** The screen an implicit intent action opens (`android.settings.APPLICATION_SETTINGS`). */
  intentScreen(action: string): string | undefined {
    return this.scenario.spec.intents?.[action];
  }

  tree(): UiElement {
    if (this.cover() === 'keyguard') return this.keyguardTree();
    if (this.cachedTree?.version !== this.version) this.cachedTree = { version: this.version, root: renderVisit(this.top(), this.layoutOptions()) };
    return this.cachedTree.root;
  }

  private keyguard: UiElement | null = null;

  /** The lock screen over everything: what a dump, a page source and a screenshot show while it is up. */
  private keyguardTree(): UiElement {
    this.keyguard ??= renderVisit(this.visitOf(KEYGUARD_SCREEN_ID), this.layoutOptions());
    return this.keyguard;
  }

  /** Issue 12: why an input does not reach the app, or null when it does. */
  private blocked(what: string): boolean {
    const cover = this.cover();
    if (cover === null) return false;
    this.log('input', `${what}: ${cover === 'keyguard' ? 'the lock screen takes it, the app gets nothing' : 'the display is off, the input is dropped'}`);
    return true;
  }

  imeVisible(): boolean {
    return this.imeOpen;
  }

  imeFrame(): Rect {
    const { width, height } = this.displaySize();
    return rectOf(displayFacts(width, height, this.rotation).imeFrame);
  }

  /** Another window took the focus (issue 12: io.appium.settings's trampoline): the IME closes, the field keeps its text. */
  hideIme(reason: string): void {
    if (!this.imeOpen) return;
    this.imeOpen = false;
    this.version++;
    this.log('screen', `${reason}: IME hidden`);
  }

  clicks(): readonly ClickRecord[] {
    return this.clickLog;
  }

  clearClicks(): void {
    this.clickLog.length = 0;
  }

  packagesInStack(): string[] {
    return [...new Set(this.stack.map((v) => v.screen.spec.package))];
  }

  /** A change on the same screen (text, scroll, toggle): ids stay valid, pixels change. */
  private changed(detail: string): void {
    this.version++;
    this.log('screen', `${detail} on ${this.foregroundComponent()} [${this.top().screen.spec.id}]${this.imeOpen ? ' ime=open' : ''}`);
  }

  private push(visit: Visit, detail: string, replace = false): void {
    if (replace) this.stack.pop();
    this.stack.push(visit);
    // A screen that focuses a field on open shows the IME, as a search activity does.
    this.version++;
    this.generation++;
    this.imeOpen = visit.screen.spec.focusOnOpen !== undefined;
    this.log('screen', `${detail} -> ${this.foregroundComponent()} [${visit.screen.spec.id}]${this.imeOpen ? ' ime=open' : ''}`);
  }

  /** Test control: show a screen on top of the launcher, state reset. */
  setScreen(screenId: string, params: Readonly<Record<string, string>> = {}): void {
    const visit = this.visitOf(screenId, params);
    this.stack = screenId === this.scenario.spec.home ? [visit] : [this.visitOf(this.scenario.spec.home), visit];
    this.version++;
    this.generation++;
    this.imeOpen = visit.screen.spec.focusOnOpen !== undefined;
    this.log('screen', `setScreen -> ${this.foregroundComponent()} [${screenId}]`);
  }

  /** Start a screen the way `am start` does: bring the package's task to front when the root matches, else push. */
  startScreen(screenId: string, options: { clearTask?: boolean; params?: Readonly<Record<string, string>>; reason: string }): LaunchOutcome {
    const screen = this.scenario.screens.get(screenId);
    if (!screen) return 'no-screen';
    const pkg = screen.spec.package;
    if (options.clearTask) this.removePackage(pkg, false);
    const task = this.stack.filter((v) => v.screen.spec.package === pkg);
    const rootOfTask = task[0];
    if (rootOfTask && rootOfTask.screen.spec.id === screenId && screenId !== this.scenario.spec.home) {
      this.stack = this.stack.filter((v) => v.screen.spec.package !== pkg).concat(task);
      if (task[task.length - 1] === this.stack[this.stack.length - 1] && this.stack.length > 0) {
        this.version++;
        this.generation++;
        this.imeOpen = false;
        this.log('screen', `${options.reason} (task brought to front) -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
      }
      return 'brought-to-front';
    }
    if (screenId === this.scenario.spec.home) {
      this.home(options.reason);
      return 'brought-to-front';
    }
    this.push(this.visitOf(screenId, options.params ?? {}), options.reason);
    return 'started';
  }

  /** A screen that exists once an installed APK declared its activity (issue 16, app_install). */
  addScreen(spec: ScreenSpec): void {
    const screens = this.scenario.screens;
    if (!(screens instanceof Map)) throw new Error('The scenario screens cannot take a new screen');
    screens.set(spec.id, normalizeScreen(spec));
  }

  /** `am force-stop`: the package's screens leave the stack. */
  removePackage(pkg: string, log = true): void {
    const before = this.top();
    this.stack = this.stack.filter((v) => v.screen.spec.package !== pkg);
    if (this.stack.length === 0) this.stack = [this.visitOf(this.scenario.spec.home)];
    if (this.top() !== before) {
      this.version++;
      this.generation++;
      this.imeOpen = false;
      if (log) this.log('screen', `force-stop ${pkg} -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
    }
  }

  home(reason = 'home'): void {
    const homeId = this.scenario.spec.home;
    const launcher = this.stack.find((v) => v.screen.spec.id === homeId) ?? this.visitOf(homeId);
    const wasTop = this.top() === launcher;
    // The Overview is a state of the launcher: going Home leaves it.
    this.stack = this.stack.filter((v) => v !== launcher && v.screen.spec.id !== 'recents').concat(launcher);
    if (!wasTop) {
      this.version++;
      this.generation++;
      this.imeOpen = false;
    }
    this.log('screen', `${reason} -> ${this.foregroundComponent()} [${homeId}]`);
  }

  back(reason = 'back'): void {
    const from = this.foreground();
    const generation = this.generation;
    this.backWithin(reason);
    // Hiding the IME or a screen that ignores BACK moves no window: only a navigation makes focus lag.
    if (this.generation !== generation) this.hooks.backNavigated?.(from);
  }

  private backWithin(reason: string): void {
    if (this.imeOpen) {
      this.imeOpen = false;
      this.version++;
      this.log('screen', `${reason}: IME hidden on ${this.foregroundComponent()}`);
      return;
    }
    const onBack = this.top().screen.spec.onBack;
    if (onBack) {
      this.run(onBack, this.top(), reason);
      if (onBack.length === 0) this.log('screen', `${reason}: nothing to go back to on ${this.foregroundComponent()}`);
      return;
    }
    this.pop(reason);
  }

  private pop(reason: string): void {
    if (this.stack.length <= 1) {
      this.home(reason);
      return;
    }
    this.stack.pop();
    this.version++;
    this.generation++;
    this.imeOpen = false;
    this.log('screen', `${reason} -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
  }

  /** Android key codes; returns false for keys the device ignores. */
  pressKey(code: number, reason: string): boolean {
    this.log('input', `keyevent ${code} (${reason})`);
    if (this.blocked(`keyevent ${code} (${reason})`)) return true;
    switch (code) {
      case 3:
        this.home(`${reason} HOME`);
        return true;
      case 4:
      case 111:
        this.back(`${reason} BACK`);
        return true;
      case 187:
        // KEYCODE_APP_SWITCH: the Overview, when the scenario has one; a second press is not modelled.
        if (!this.scenario.screens.has('recents')) return false;
        this.stack = this.stack.filter((v) => v.screen.spec.id !== 'recents');
        this.startScreen('recents', { reason: `${reason} APP_SWITCH` });
        return true;
      case 66:
      case 160:
        if (this.imeOpen) {
          this.imeOpen = false;
          this.version++;
          this.log('screen', `${reason} ENTER: IME hidden`);
        }
        return true;
      case 67: {
        const field = this.focusedField();
        if (field) this.setText(field.key, field.editableText.slice(0, -1), `${reason} DEL`);
        return true;
      }
      default:
        return false;
    }
  }

  focusedField(): UiElement | null {
    const key = this.top().focusedKey;
    if (key === null) return null;
    return flatten(this.tree()).find((e) => e.key === key && e.className.endsWith('EditText')) ?? null;
  }

  setText(key: string, text: string, reason: string): void {
    const visit = this.top();
    visit.texts.set(key, text);
    this.version++;
    this.log('input', `${reason}: ${key} text=${JSON.stringify(text)} on [${visit.screen.spec.id}]`);
  }

  /**
   * Whether ACTION_SET_TEXT would succeed on this node: an enabled EditText (TextView refuses it
   * unless its text is editable and it is enabled), and for a Flutter field only while it has
   * focus (RenderEditable offers onSetText only then).
   */
  takesText(element: UiElement): boolean {
    if (!element.className.endsWith('EditText') || !element.enabled) return false;
    return !element.setTextNeedsFocus || element.focused;
  }

  /** ACTION_SET_TEXT: sets the text and answers true, or logs the refusal and answers false, changing nothing. */
  performSetText(element: UiElement, text: string, reason: string): boolean {
    if (!this.takesText(element)) {
      const why = element.className.endsWith('EditText') && element.enabled ? 'a Flutter field without focus' : 'not an enabled editable field';
      this.log('input', `${reason}: ACTION_SET_TEXT refused by ${describeElement(element)} (${why})`);
      return false;
    }
    this.setText(element.key, text, reason);
    return true;
  }

  /** `input text`: characters go to the focused field when the IME could deliver them. */
  typeText(text: string, reason: string): boolean {
    if (this.blocked(`${reason}: text`)) return false;
    const field = this.focusedField();
    if (!field) {
      this.log('input', `${reason}: ${JSON.stringify(text)} dropped (no focused text field)`);
      return false;
    }
    this.setText(field.key, field.editableText + text, reason);
    return true;
  }

  private record(record: ClickRecord): ClickRecord {
    this.clickLog.push(record);
    const el = record.element ? ` element=${record.element.key} ${record.element.description} bounds=${formatBounds(record.element.bounds)}` : '';
    const target = record.onKeyboard
      ? ' target=ime'
      : record.onSystemBar
        ? ` target=${record.onSystemBar}-bar (System UI takes it, the app does not see it)`
        : record.target
        ? ` target=${record.target.key} ${record.target.description} bounds=${formatBounds(record.target.bounds)}`
        : ' target=none';
    const held = record.heldMs > 0 ? ` held=${record.heldMs}ms` : '';
    this.log(record.gesture === 'long-click' ? 'long-click' : 'click', `${record.source} at=(${record.x},${record.y})${held}${el}${target} screen=${record.screenId}`);
    return record;
  }

  clickElement(element: UiElement, source: ClickSource): ClickRecord {
    const { x, y } = center(element.bounds);
    return this.tapAt(x, y, source, element);
  }

  tapAt(x: number, y: number, source: ClickSource, element: UiElement | null = null): ClickRecord {
    return this.press(x, y, 0, source, element);
  }

  /**
   * A pointer held down for `heldMs` at one point, then released (View.onTouchEvent): a long
   * click fires only when the hold passes the long-press timeout and the touched node is
   * long-clickable; its OnLongClickListener (`onLongClick`) handles it. An unhandled long click,
   * a long hold on a node that is only clickable, and any shorter press end in a click.
   */
  press(x: number, y: number, heldMs: number, source: ClickSource, element: UiElement | null = null): ClickRecord {
    const visit = this.top();
    const screenId = visit.screen.spec.id;
    const named = element ? { key: element.key, bounds: element.bounds, description: describeElement(element) } : null;
    const held = Math.max(0, Math.round(heldMs));
    if (this.blocked(`${source} at (${x},${y})`)) {
      return this.record({ source, gesture: 'click', heldMs: held, screenId, x, y, element: named, target: null, onKeyboard: false });
    }
    if (this.imeOpen && contains(this.imeFrame(), x, y)) {
      return this.record({ source, gesture: 'click', heldMs: held, screenId, x, y, element: named, target: null, onKeyboard: true });
    }
    // An edge-to-edge app draws under the bars, but a touch there still goes to their window.
    // System UI's own nodes (a capture's navigation buttons) are the bar's window and take it.
    const bar = systemBarAt(y, this.displaySize().height);
    if (bar && !this.hitTest(x, y, (e) => e.package === 'com.android.systemui')) return this.record({ source, gesture: 'click', heldMs: held, screenId, x, y, element: named, target: null, onKeyboard: false, onSystemBar: bar });
    const longPress = held > this.longPressTimeoutMs();
    // A long-clickable view takes the touch stream too (it is "clickable" to onTouchEvent), so a long
    // hold reaches the topmost clickable or long-clickable node; a short tap keeps the click hit test.
    const hit = longPress
      ? this.hitTest(x, y, (e) => (e.clickable || e.longClickable) && e.enabled)
      : this.hitTest(x, y, (e) => e.clickable && e.enabled);
    const longClick = longPress && hit !== null && hit.longClickable;
    const record = this.record({
      source,
      gesture: longClick ? 'long-click' : 'click',
      heldMs: held,
      screenId,
      x,
      y,
      element: named,
      target: hit ? { key: hit.key, bounds: hit.bounds, description: describeElement(hit) } : null,
      onKeyboard: false,
    });
    if (!hit || visit.screen.spec.static) return record;
    if (longClick && hit.onLongClick.length > 0) {
      this.run(hit.onLongClick, visit, `long click ${describeElement(hit)}`, hit.key);
      return record;
    }
    if (longClick) this.log('screen', `long click on ${describeElement(hit)} not handled: released as a click`);
    if (hit.className.endsWith('EditText')) this.focus(visit, hit.key);
    if (hit.onClick.length > 0) this.run(hit.onClick, visit, `click ${describeElement(hit)}`, hit.key);
    else if (hit.checkable) this.toggle(visit, hit.key);
    return record;
  }

  /** A press on an element's centre held for `heldMs` (UiAutomator2's long_click gesture). */
  pressElement(element: UiElement, heldMs: number, source: ClickSource): ClickRecord {
    const { x, y } = center(element.bounds);
    return this.press(x, y, heldMs, source, element);
  }

  /** Topmost element (last drawn) at a point that passes the filter. */
  hitTest(x: number, y: number, accept: (e: UiElement) => boolean): UiElement | null {
    const all = flatten(this.tree());
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i];
      if (e && contains(e.bounds, x, y) && accept(e)) return e;
    }
    return null;
  }

  /** `input swipe`: a straight drag at constant speed (300 ms unless given), lifted without a pause. */
  swipe(x1: number, y1: number, x2: number, y2: number, reason: string, durationMs = 300): boolean {
    return this.drag(straightStroke(x1, y1, x2, y2, durationMs), reason);
  }

  /**
   * A finger that went down, moved and lifted. The window under the first touch gets the whole
   * gesture: the open IME (the keyboard scrolls, the app does not), a system bar (System UI), or
   * the app, where the scrollable container under that point follows the finger past the touch
   * slop and flings on when the lift was fast enough (touch.ts). Returns whether content moved.
   */
  drag(stroke: TouchStroke, reason: string): boolean {
    const start = stroke.samples[0];
    if (!start) return false;
    const { x, y } = start;
    const end = stroke.up;
    const line = `${reason} swipe (${x},${y})->(${end.x},${end.y}) in ${end.t} ms`;
    if (this.blocked(line)) return false;
    if (this.imeOpen && contains(this.imeFrame(), x, y)) {
      this.log('input', `${line} on the keyboard: the IME window takes it, the app does not move`);
      return false;
    }
    const bar = systemBarAt(y, this.displaySize().height);
    if (bar) {
      this.log('input', `${line} on the ${bar} bar: System UI takes it, the app does not move`);
      return false;
    }
    // The axis the finger moved along most: a horizontal list ignores a vertical drag (RecyclerView
    // tests canScrollVertically before it takes dy) and its vertical parent intercepts it, and the
    // other way round, so the topmost container at the touch that scrolls along that axis takes it.
    const last = stroke.samples[stroke.samples.length - 1] ?? start;
    const axis = Math.abs(last.x - x) > Math.abs(last.y - y) ? 'x' : 'y';
    const scroller = this.hitTest(x, y, (e) => e.scrollable && e.horizontal === (axis === 'x'));
    const travel = listTravel(stroke, this.dpi(), axis);
    this.log(
      'input',
      `${line}${scroller ? ` over ${scroller.key}` : ` over nothing that scrolls ${axis === 'x' ? 'sideways' : 'vertically'}`}: drag ${travel.drag} px, release ${Math.round(travel.velocity)} px/s${travel.fling !== 0 ? `, fling ${travel.fling} px` : ', no fling'}`,
    );
    if (!scroller || this.top().screen.spec.static) return false;
    const dragged = travel.drag !== 0 && this.scrollBy(scroller.key, travel.drag, reason);
    const flung = travel.fling !== 0 && this.scrollBy(scroller.key, travel.fling, `${reason} fling`);
    return dragged || flung;
  }

  scrollBy(key: string, delta: number, reason: string): boolean {
    const visit = this.top();
    const spec = visit.screen.nodesByKey.get(key);
    if (!spec) return false;
    const before = visit.scroll.get(key) ?? 0;
    const after = Math.max(0, Math.min(maxScroll(spec, visit), before + delta));
    if (after === before) {
      this.log('screen', `${reason}: ${key} already at its ${delta > 0 ? 'end' : 'start'} (offset ${before})`);
      return false;
    }
    visit.scroll.set(key, after);
    this.changed(`${reason}: scrolled ${key} offset ${before}->${after}`);
    return true;
  }

  private focus(visit: Visit, key: string): void {
    visit.focusedKey = key;
    this.imeOpen = true;
    this.version++;
    this.log('screen', `focus ${key} on [${visit.screen.spec.id}] ime=open`);
  }

  private toggle(visit: Visit, key: string): void {
    const spec = visit.screen.nodesByKey.get(key);
    const now = !(visit.checked.get(key) ?? spec?.checked ?? false);
    visit.checked.set(key, now);
    this.changed(`toggle ${key} checked=${now}`);
  }

  private run(actions: readonly Action[], visit: Visit, reason: string, selfKey?: string): void {
    for (const action of actions) {
      switch (action.type) {
        case 'goto':
          this.push(this.visitOf(action.screen, substituteParams(action.params ?? {}, visit)), reason, action.replace === true);
          break;
        case 'back':
          this.pop(reason);
          break;
        case 'home':
          this.home(reason);
          break;
        case 'launch': {
          const pkg = this.scenario.spec.packages.find((p) => p.name === action.package);
          if (pkg?.launcher && pkg.launcher.screen !== '') this.startScreen(pkg.launcher.screen, { reason: `${reason} launch ${pkg.name}` });
          else this.log('screen', `${reason}: ${action.package} has no launcher screen`);
          break;
        }
        case 'toggle':
          this.toggle(visit, action.node ?? selfKey ?? '');
          break;
        case 'focus':
          this.focus(visit, action.node ?? selfKey ?? '');
          break;
        case 'setText':
          visit.texts.set(action.node, substitute(action.template, visit));
          this.changed(`${reason}: ${action.node} text=${JSON.stringify(visit.texts.get(action.node))}`);
          break;
        case 'hideKeyboard':
          if (this.imeOpen) {
            this.imeOpen = false;
            this.changed(`${reason}: IME hidden`);
          }
          break;
        case 'log':
          this.hooks.appLogged?.(visit.screen.spec.package, action);
          break;
        case 'crash': {
          const pkg = visit.screen.spec.package;
          this.hooks.appCrashed?.(pkg, action, qualifyActivity(pkg, visit.screen.spec.activity));
          // The process is gone: its activities are finished and the task below comes back (no dialog on a first crash).
          this.removePackage(pkg, false);
          this.log('screen', `${reason}: ${pkg} crashed -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
          return;
        }
      }
    }
  }
}

function substituteParams(params: Readonly<Record<string, string>>, visit: Visit): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = substitute(v, visit);
  return out;
}
