/**
 * The stack of screen visits, as the activity manager keeps tasks: what is in front, what a
 * launch, Home, Back or a force-stop does to the stack. Every move bumps the shared UI state
 * (element ids go stale, the IME follows the screen) and is logged.
 */
import type { DeviceLogKind } from '../contracts.js';
import { qualifyActivity, shortActivity, type Action, type ScreenSpec } from '../scenario/model.js';
import { normalizeScreen, type NormalizedScenario } from '../scenario/normalize.js';
import { NOTIFICATION_SHADE_SCREEN_ID } from '../scenario/notificationShade.js';
import { newVisit, type Visit } from './uiTree.js';
import type { ForegroundInfo, LaunchOutcome } from './uiTypes.js';

/** What the screen state machine's parts share: the IME and the counters caches and element ids follow. */
export interface UiState {
  imeOpen: boolean;
  /** Bumps when the foreground visit changes (element ids go stale). */
  generation: number;
  /** Bumps on any visible change (screenshots, caches). */
  version: number;
}

export interface NavigationHost {
  log(kind: DeviceLogKind, detail: string): void;
  /** Logs why an input does not reach the app (lock screen, display off) and says whether it was blocked. */
  blocked(what: string): boolean;
  run(actions: readonly Action[], visit: Visit, reason: string): void;
  /** A Back changed the foreground visit; `from` is what was in front before. */
  backNavigated(from: ForegroundInfo): void;
}

export class Navigation {
  private stack: Visit[] = [];

  constructor(
    private readonly scenario: NormalizedScenario,
    private readonly state: UiState,
    private readonly host: NavigationHost,
  ) {
    this.stack = [this.visitOf(scenario.spec.home)];
    const start = scenario.spec.start;
    if (start !== undefined && start !== scenario.spec.home) this.stack.push(this.visitOf(start));
  }

  /** KEYCODE_APP_SWITCH: the Overview comes to the front afresh, when the scenario has one. */
  appSwitch(reason: string): boolean {
    if (!this.scenario.screens.has('recents')) return false;
    this.stack = this.stack.filter((v) => v.screen.spec.id !== 'recents');
    this.startScreen('recents', { reason });
    return true;
  }

  visitOf(screenId: string, params: Readonly<Record<string, string>> = {}): Visit {
    const screen = this.scenario.screens.get(screenId);
    if (!screen)
      throw new Error(`Unknown screen '${screenId}'. Known screens: ${[...this.scenario.screens.keys()].join(', ')}.`);
    return newVisit(screen, params);
  }

  top(): Visit {
    const visit = this.stack[this.stack.length - 1];
    if (!visit) throw new Error('The screen stack is empty');
    return visit;
  }

  foreground(): ForegroundInfo {
    const spec = this.top().screen.spec;
    return { package: spec.package, activity: qualifyActivity(spec.package, spec.activity), screenId: spec.id };
  }

  /** The System UI window in front (the pulled-down shade), or null when an activity's window is. */
  systemWindow(): 'NotificationShade' | null {
    return this.top().screen.spec.systemWindow ?? null;
  }

  /** The topmost visit of an activity (under a System UI window, the one that stays resumed). */
  resumedVisit(): Visit | undefined {
    return [...this.stack].reverse().find((v) => v.screen.spec.systemWindow === undefined);
  }

  /** The activity that stays resumed under a System UI window (the focused app), else the foreground. */
  resumedActivity(): ForegroundInfo {
    const below = this.resumedVisit();
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
    if (this.host.blocked(reason)) return false;
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

  packagesInStack(): string[] {
    return [...new Set(this.stack.map((v) => v.screen.spec.package))];
  }

  push(visit: Visit, detail: string, replace = false): void {
    if (replace) this.stack.pop();
    this.stack.push(visit);
    // A screen that focuses a field on open shows the IME, as a search activity does.
    this.state.version++;
    this.state.generation++;
    this.state.imeOpen = visit.screen.spec.focusOnOpen !== undefined;
    this.host.log(
      'screen',
      `${detail} -> ${this.foregroundComponent()} [${visit.screen.spec.id}]${this.state.imeOpen ? ' ime=open' : ''}`,
    );
  }

  /** Test control: show a screen on top of the launcher, state reset. */
  setScreen(screenId: string, params: Readonly<Record<string, string>> = {}): void {
    const visit = this.visitOf(screenId, params);
    this.stack = screenId === this.scenario.spec.home ? [visit] : [this.visitOf(this.scenario.spec.home), visit];
    this.state.version++;
    this.state.generation++;
    this.state.imeOpen = visit.screen.spec.focusOnOpen !== undefined;
    this.host.log('screen', `setScreen -> ${this.foregroundComponent()} [${screenId}]`);
  }

  /** Start a screen the way `am start` does: bring the package's task to front when the root matches, else push. */
  startScreen(
    screenId: string,
    options: { clearTask?: boolean; params?: Readonly<Record<string, string>>; reason: string },
  ): LaunchOutcome {
    const screen = this.scenario.screens.get(screenId);
    if (!screen) return 'no-screen';
    const pkg = screen.spec.package;
    if (options.clearTask) this.removePackage(pkg, false);
    const task = this.stack.filter((v) => v.screen.spec.package === pkg);
    const rootOfTask = task[0];
    if (rootOfTask && rootOfTask.screen.spec.id === screenId && screenId !== this.scenario.spec.home) {
      this.stack = this.stack.filter((v) => v.screen.spec.package !== pkg).concat(task);
      if (task[task.length - 1] === this.stack[this.stack.length - 1] && this.stack.length > 0) {
        this.state.version++;
        this.state.generation++;
        this.state.imeOpen = false;
        this.host.log(
          'screen',
          `${options.reason} (task brought to front) -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`,
        );
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

  /** A screen that exists once an installed APK declared its activity (app_install). */
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
      this.state.version++;
      this.state.generation++;
      this.state.imeOpen = false;
      if (log)
        this.host.log('screen', `force-stop ${pkg} -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
    }
  }

  home(reason = 'home'): void {
    const homeId = this.scenario.spec.home;
    const launcher = this.stack.find((v) => v.screen.spec.id === homeId) ?? this.visitOf(homeId);
    const wasTop = this.top() === launcher;
    // The Overview is a state of the launcher: going Home leaves it.
    this.stack = this.stack.filter((v) => v !== launcher && v.screen.spec.id !== 'recents').concat(launcher);
    if (!wasTop) {
      this.state.version++;
      this.state.generation++;
      this.state.imeOpen = false;
    }
    this.host.log('screen', `${reason} -> ${this.foregroundComponent()} [${homeId}]`);
  }

  back(reason = 'back'): void {
    const from = this.foreground();
    const generation = this.state.generation;
    this.backWithin(reason);
    // Hiding the IME or a screen that ignores BACK moves no window: only a navigation makes focus lag.
    if (this.state.generation !== generation) this.host.backNavigated(from);
  }

  private backWithin(reason: string): void {
    if (this.state.imeOpen) {
      this.state.imeOpen = false;
      this.state.version++;
      this.host.log('screen', `${reason}: IME hidden on ${this.foregroundComponent()}`);
      return;
    }
    const onBack = this.top().screen.spec.onBack;
    if (onBack) {
      this.host.run(onBack, this.top(), reason);
      if (onBack.length === 0)
        this.host.log('screen', `${reason}: nothing to go back to on ${this.foregroundComponent()}`);
      return;
    }
    this.pop(reason);
  }

  pop(reason: string): void {
    if (this.stack.length <= 1) {
      this.home(reason);
      return;
    }
    this.stack.pop();
    this.state.version++;
    this.state.generation++;
    this.state.imeOpen = false;
    this.host.log('screen', `${reason} -> ${this.foregroundComponent()} [${this.top().screen.spec.id}]`);
  }
}
