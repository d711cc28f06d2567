/**
 * What a scenario's handlers do when they run (a click's `onClick`, a long click's `onLongClick`,
 * a screen's `onBack`): navigate, change the visit's state, write to logcat or crash the app.
 */
import type { DeviceLogKind } from '../contracts.js';
import { qualifyActivity, type Action } from '../scenario/model.js';
import { substitute, type Visit } from './uiTree.js';
import type { UiHooks } from './uiTypes.js';

/** The screen state machine's moves an action may make. */
export interface ActionHost {
  hooks(): UiHooks;
  log(kind: DeviceLogKind, detail: string): void;
  goto(screenId: string, params: Readonly<Record<string, string>>, reason: string, replace: boolean): void;
  pop(reason: string): void;
  home(reason: string): void;
  /** Starts the package's launcher screen; false when it has none. */
  launch(pkg: string, reason: string): boolean;
  toggle(visit: Visit, key: string): void;
  focus(visit: Visit, key: string): void;
  /** A change on the same screen: the visit's pixels change, its ids stay valid. */
  changed(detail: string): void;
  /** Closes the IME; false when it was not open. */
  hideIme(): boolean;
  /** The package's screens leave the stack (its process died). */
  removePackage(pkg: string): void;
  /** `pkg/.Act [screen]` of what is in front now, for the log. */
  inFront(): string;
}

export function runActions(
  host: ActionHost,
  actions: readonly Action[],
  visit: Visit,
  reason: string,
  selfKey?: string,
): void {
  for (const action of actions) {
    switch (action.type) {
      case 'goto':
        host.goto(action.screen, substituteParams(action.params ?? {}, visit), reason, action.replace === true);
        break;
      case 'back':
        host.pop(reason);
        break;
      case 'home':
        host.home(reason);
        break;
      case 'launch':
        if (!host.launch(action.package, `${reason} launch ${action.package}`))
          host.log('screen', `${reason}: ${action.package} has no launcher screen`);
        break;
      case 'toggle':
        host.toggle(visit, action.node ?? selfKey ?? '');
        break;
      case 'focus':
        host.focus(visit, action.node ?? selfKey ?? '');
        break;
      case 'setText':
        visit.texts.set(action.node, substitute(action.template, visit));
        host.changed(`${reason}: ${action.node} text=${JSON.stringify(visit.texts.get(action.node))}`);
        break;
      case 'hideKeyboard':
        if (host.hideIme()) host.changed(`${reason}: IME hidden`);
        break;
      case 'log':
        host.hooks().appLogged?.(visit.screen.spec.package, action);
        break;
      case 'crash': {
        const pkg = visit.screen.spec.package;
        host.hooks().appCrashed?.(pkg, action, qualifyActivity(pkg, visit.screen.spec.activity));
        // The process is gone: its activities are finished and the task below comes back (no dialog on a first crash).
        host.removePackage(pkg);
        host.log('screen', `${reason}: ${pkg} crashed -> ${host.inFront()}`);
        return;
      }
    }
  }
}

function substituteParams(params: Readonly<Record<string, string>>, visit: Visit): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = substitute(v, visit);
  return out;
}
