/**
 * The device's screen state machine: the display and its rotation, the rendered tree, the IME
 * and keys. Everything that changes what is on screen goes through here and is logged. Its parts
 * live beside it: the screen stack (navigation.ts), touches (touchInput.ts), text (textInput.ts)
 * and what a scenario's handlers do (scenarioActions.ts).
 */
import type { DeviceLogKind } from '../contracts.js';
import { KEYGUARD_SCREEN_ID } from '../scenario/keyguard.js';
import { shortActivity, type Action, type ScreenSpec } from '../scenario/model.js';
import { PHYSICAL_DENSITY, SCREEN_HEIGHT, SCREEN_WIDTH } from '../scenario/model.js';
import type { NormalizedScenario } from '../scenario/normalize.js';
import { center, rectOf, type Rect } from './geometry.js';
import { isLandscape, relayoutRect, type DisplayRotation } from './rotation.js';
import { runActions, type ActionHost } from './scenarioActions.js';
import { Navigation, type UiState } from './navigation.js';
import { TextInput, takesText } from './textInput.js';
import { straightStroke, type TouchStroke } from './touch.js';
import { TouchInput, type TouchHost } from './touchInput.js';
import { rotatedSize } from './traits.js';
import { maxScroll, renderVisit, type RenderOptions, type UiElement, type Visit } from './uiTree.js';
import type { ClickRecord, ClickSource, Cover, ForegroundInfo, LaunchOutcome, UiHooks } from './uiTypes.js';
import { displayFacts } from './windowState.js';

export type { ClickRecord, ClickSource, Cover, ForegroundInfo, LaunchOutcome, UiHooks } from './uiTypes.js';

export class DeviceUi implements TouchHost {
  private readonly state: UiState = { imeOpen: false, generation: 0, version: 0 };
  private readonly nav: Navigation;
  private cachedTree: { version: number; root: UiElement } | null = null;
  /** What a scenario handler may do to the stack and the visit. */
  private readonly actions: ActionHost = {
    hooks: () => this.hooks,
    log: (kind, detail) => this.log(kind, detail),
    goto: (screenId, params, reason, replace) => this.nav.push(this.nav.visitOf(screenId, params), reason, replace),
    pop: (reason) => this.nav.pop(reason),
    home: (reason) => this.nav.home(reason),
    launch: (pkg, reason) => {
      const launcher = this.scenario.spec.packages.find((p) => p.name === pkg)?.launcher;
      if (!launcher || launcher.screen === '') return false;
      this.nav.startScreen(launcher.screen, { reason });
      return true;
    },
    toggle: (visit, key) => this.toggle(visit, key),
    focus: (visit, key) => this.focus(visit, key),
    changed: (detail) => this.changed(detail),
    hideIme: () => {
      const was = this.state.imeOpen;
      this.state.imeOpen = false;
      return was;
    },
    removePackage: (pkg) => this.nav.removePackage(pkg, false),
    inFront: () => `${this.foregroundComponent()} [${this.nav.top().screen.spec.id}]`,
  };
  private readonly touch = new TouchInput(this);
  private readonly text = new TextInput({
    current: () => this.nav.top(),
    tree: () => this.tree(),
    blocked: (what) => this.blocked(what),
    log: (kind, detail) => this.log(kind, detail),
    redrawn: () => this.version++,
  });

  constructor(
    private readonly scenario: NormalizedScenario,
    readonly log: (kind: DeviceLogKind, detail: string) => void,
    /** The effective dpi (an override wins): touch slop and fling velocities scale with it. */
    readonly dpi: () => number = () => PHYSICAL_DENSITY,
    private readonly hooks: UiHooks = {},
    /** Read at every render: a change must bump `version` (VirtualDevice.setPasswordText does). */
    private readonly renderOptions: () => RenderOptions = () => ({ passwordText: 'bullets' }),
    /** ViewConfiguration.getLongPressTimeout() of the device. */
    readonly longPressTimeoutMs: () => number = () => 400,
    /** Read at every render and input: a change must bump `version` (VirtualDevice.setLocked does). */
    private readonly cover: () => Cover = () => null,
    /** The active panel in its natural orientation; read at every render: a change must bump `version` (VirtualDevice.setDisplays does). */
    private readonly panel: () => { width: number; height: number } = () => ({
      width: SCREEN_WIDTH,
      height: SCREEN_HEIGHT,
    }),
  ) {
    this.nav = new Navigation(scenario, this.state, {
      log: (kind, detail) => this.log(kind, detail),
      blocked: (what) => this.blocked(what),
      run: (actions, visit, reason) => this.run(actions, visit, reason),
      backNavigated: (from) => this.hooks.backNavigated?.(from),
    });
    this.state.imeOpen = this.nav.top().focusedKey !== null;
  }

  /** Bumps when the foreground visit changes (element ids go stale). */
  get generation(): number {
    return this.state.generation;
  }

  set generation(n: number) {
    this.state.generation = n;
  }

  /** Bumps on any visible change (screenshots, caches). */
  get version(): number {
    return this.state.version;
  }

  set version(n: number) {
    this.state.version = n;
  }

  current(): Visit {
    return this.nav.top();
  }

  foreground(): ForegroundInfo {
    return this.nav.foreground();
  }

  /** `pkg/.Act` as dumpsys and am print it. */
  foregroundComponent(short = true): string {
    return this.nav.foregroundComponent(short);
  }

  /**
   * The visible window that sets FLAG_SECURE, as `pkg/.Activity`, or null: the resumed activity's
   * when its screen is secure, also under the pulled-down shade (its layer stays visible), and none
   * while the lock screen or a dark panel covers it.
   */
  secureWindow(): string | null {
    if (this.cover() !== null) return null;
    const spec = this.nav.resumedVisit()?.screen.spec;
    return spec?.secure ? `${spec.package}/${shortActivity(spec.package, spec.activity)}` : null;
  }

  /** Whether a screen's window sets FLAG_SECURE (false for an unknown id). */
  isSecureScreen(screenId: string): boolean {
    return this.scenario.screens.get(screenId)?.spec.secure === true;
  }

  /** The System UI window in front (the pulled-down shade), or null when an activity's window is. */
  systemWindow(): 'NotificationShade' | null {
    return this.nav.systemWindow();
  }

  /** The activity that stays resumed under a System UI window (the focused app), else the foreground. */
  resumedActivity(): ForegroundInfo {
    return this.nav.resumedActivity();
  }

  packagesInStack(): string[] {
    return this.nav.packagesInStack();
  }

  /** The screen an implicit intent action opens (`android.settings.APPLICATION_SETTINGS`). */
  intentScreen(action: string): string | undefined {
    return this.nav.intentScreen(action);
  }

  /** A screen that exists once an installed APK declared its activity. */
  addScreen(spec: ScreenSpec): void {
    this.nav.addScreen(spec);
  }

  /** Pulls the notification shade down over whatever is in front (navigation.ts); false when input is blocked. */
  openNotificationShade(reason: string): boolean {
    return this.nav.openNotificationShade(reason);
  }

  /** Test control: show a screen on top of the launcher, state reset. */
  setScreen(screenId: string, params: Readonly<Record<string, string>> = {}): void {
    this.nav.setScreen(screenId, params);
  }

  /** Start a screen the way `am start` does (navigation.ts). */
  startScreen(
    screenId: string,
    options: { clearTask?: boolean; params?: Readonly<Record<string, string>>; reason: string },
  ): LaunchOutcome {
    return this.nav.startScreen(screenId, options);
  }

  /** `am force-stop`: the package's screens leave the stack. */
  removePackage(pkg: string, log = true): void {
    this.nav.removePackage(pkg, log);
  }

  home(reason = 'home'): void {
    this.nav.home(reason);
  }

  back(reason = 'back'): void {
    this.nav.back(reason);
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

  /** The rotation the scenario's screens were drawn for. */
  rotationDrawnFor(): DisplayRotation {
    return this.drawnFor;
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
    this.log(
      'screen',
      `${reason}: rotation ${before}->${rotation} on ${this.foregroundComponent()} [${this.nav.top().screen.spec.id}]`,
    );
  }

  private layoutOptions(): RenderOptions {
    const options = this.renderOptions();
    if (isLandscape(this.rotation) === isLandscape(this.drawnFor)) return options;
    const from = rotatedSize(this.panel(), this.drawnFor);
    const to = this.displaySize();
    return { ...options, layout: (r) => relayoutRect(r, from, to) };
  }

  tree(): UiElement {
    if (this.cover() === 'keyguard') return this.keyguardTree();
    if (this.cachedTree?.version !== this.version)
      this.cachedTree = { version: this.version, root: renderVisit(this.nav.top(), this.layoutOptions()) };
    return this.cachedTree.root;
  }

  private keyguard: UiElement | null = null;

  /** The lock screen over everything: what a dump, a page source and a screenshot show while it is up. */
  private keyguardTree(): UiElement {
    this.keyguard ??= renderVisit(this.nav.visitOf(KEYGUARD_SCREEN_ID), this.layoutOptions());
    return this.keyguard;
  }

  /** Whether an input is kept from the app (the lock screen takes it, or the display is off); logs why. */
  blocked(what: string): boolean {
    const cover = this.cover();
    if (cover === null) return false;
    this.log(
      'input',
      `${what}: ${cover === 'keyguard' ? 'the lock screen takes it, the app gets nothing' : 'the display is off, the input is dropped'}`,
    );
    return true;
  }

  imeVisible(): boolean {
    return this.state.imeOpen;
  }

  imeFrame(): Rect {
    const { width, height } = this.displaySize();
    return rectOf(displayFacts(width, height, this.rotation).imeFrame);
  }

  /** Another window took the focus (io.appium.settings's trampoline): the IME closes, the field keeps its text. */
  hideIme(reason: string): void {
    if (!this.state.imeOpen) return;
    this.state.imeOpen = false;
    this.version++;
    this.log('screen', `${reason}: IME hidden`);
  }

  clicks(): readonly ClickRecord[] {
    return this.touch.clicks();
  }

  clearClicks(): void {
    this.touch.clearClicks();
  }

  /** A change on the same screen (text, scroll, toggle): ids stay valid, pixels change. */
  private changed(detail: string): void {
    this.version++;
    this.log(
      'screen',
      `${detail} on ${this.foregroundComponent()} [${this.nav.top().screen.spec.id}]${this.state.imeOpen ? ' ime=open' : ''}`,
    );
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
        return this.nav.appSwitch(`${reason} APP_SWITCH`);
      case 66:
      case 160:
        if (this.state.imeOpen) {
          this.state.imeOpen = false;
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
    return this.text.focusedField();
  }

  setText(key: string, text: string, reason: string): void {
    this.text.setText(key, text, reason);
  }

  /** Whether ACTION_SET_TEXT would succeed on this node (textInput.ts). */
  takesText(element: UiElement): boolean {
    return takesText(element);
  }

  /** ACTION_SET_TEXT: sets the text and answers true, or logs the refusal and answers false, changing nothing. */
  performSetText(element: UiElement, text: string, reason: string): boolean {
    return this.text.performSetText(element, text, reason);
  }

  /** `input text`: characters go to the focused field when the IME could deliver them. */
  typeText(text: string, reason: string): boolean {
    return this.text.typeText(text, reason);
  }

  clickElement(element: UiElement, source: ClickSource): ClickRecord {
    const { x, y } = center(element.bounds);
    return this.tapAt(x, y, source, element);
  }

  tapAt(x: number, y: number, source: ClickSource, element: UiElement | null = null): ClickRecord {
    return this.press(x, y, 0, source, element);
  }

  /** A pointer held down for `heldMs` at one point, then released: a click or a long click (touchInput.ts). */
  press(x: number, y: number, heldMs: number, source: ClickSource, element: UiElement | null = null): ClickRecord {
    return this.touch.press(x, y, heldMs, source, element);
  }

  /** A press on an element's centre held for `heldMs` (UiAutomator2's long_click gesture). */
  pressElement(element: UiElement, heldMs: number, source: ClickSource): ClickRecord {
    const { x, y } = center(element.bounds);
    return this.press(x, y, heldMs, source, element);
  }

  /** Topmost element (last drawn) at a point that passes the filter. */
  hitTest(x: number, y: number, accept: (e: UiElement) => boolean): UiElement | null {
    return this.touch.hitTest(x, y, accept);
  }

  /** `input swipe`: a straight drag at constant speed (300 ms unless given), lifted without a pause. */
  swipe(x1: number, y1: number, x2: number, y2: number, reason: string, durationMs = 300): boolean {
    return this.drag(straightStroke(x1, y1, x2, y2, durationMs), reason);
  }

  /** A finger that went down, moved and lifted: the window under the first touch takes the gesture (touchInput.ts). */
  drag(stroke: TouchStroke, reason: string): boolean {
    return this.touch.drag(stroke, reason);
  }

  scrollBy(key: string, delta: number, reason: string): boolean {
    const visit = this.nav.top();
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

  /** A scrollable node's offset and how far it can go on the current screen (null: no such node). */
  scrollPosition(key: string): { offset: number; max: number } | null {
    const visit = this.nav.top();
    const spec = visit.screen.nodesByKey.get(key);
    return spec ? { offset: visit.scroll.get(key) ?? 0, max: maxScroll(spec, visit) } : null;
  }

  /** A tap on a field: it takes the focus and the IME opens. */
  focus(visit: Visit, key: string): void {
    visit.focusedKey = key;
    this.state.imeOpen = true;
    this.version++;
    this.log('screen', `focus ${key} on [${visit.screen.spec.id}] ime=open`);
  }

  /** A tap on a checkable node without a handler flips it. */
  toggle(visit: Visit, key: string): void {
    const spec = visit.screen.nodesByKey.get(key);
    const now = !(visit.checked.get(key) ?? spec?.checked ?? false);
    visit.checked.set(key, now);
    this.changed(`toggle ${key} checked=${now}`);
  }

  /** Runs a scenario handler (a click's, a long click's, a screen's Back) on the visit it belongs to. */
  run(actions: readonly Action[], visit: Visit, reason: string, selfKey?: string): void {
    runActions(this.actions, actions, visit, reason, selfKey);
  }
}
