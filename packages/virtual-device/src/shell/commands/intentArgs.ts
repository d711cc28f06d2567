/** `am start` style intent arguments, parsed and described as ActivityManager prints an Intent. */

export const LAUNCHER_CATEGORY = 'android.intent.category.LAUNCHER';
export const MAIN_ACTION = 'android.intent.action.MAIN';
export const VIEW_ACTION = 'android.intent.action.VIEW';

export interface IntentArgs {
  wait: boolean;
  stop: boolean;
  component?: string;
  action?: string;
  categories: string[];
  flags?: string;
  data?: string;
  /** A bare trailing package name: the intent's package (Intent.parseCommandArgs). */
  pkg?: string;
  extras: string[];
}

/** Parses `am start` style intent arguments. */
export function parseIntent(args: readonly string[]): IntentArgs {
  const intent: IntentArgs = { wait: false, stop: false, categories: [], extras: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const next = (): string => args[++i] ?? '';
    switch (a) {
      case '-W':
        intent.wait = true;
        break;
      case '-S':
        intent.stop = true;
        break;
      case '-n':
        intent.component = next();
        break;
      case '-a':
        intent.action = next();
        break;
      case '-c':
        intent.categories.push(next());
        break;
      case '-f':
        intent.flags = next();
        break;
      case '-d':
        intent.data = next();
        break;
      case '--user':
      case '-R':
      case '--display':
      case '--windowingMode':
      case '--activityType':
        next();
        break;
      case '-e':
      case '--es':
      case '--ei':
      case '--ez':
      case '--el':
      case '--ef':
      case '--eu':
        intent.extras.push(next(), next());
        break;
      case '-D':
      case '-N':
      case '-P':
      case '--activity-clear-task':
      case '--activity-new-task':
      case '--activity-single-top':
      case '--activity-clear-top':
      case '--activity-reset-task-if-needed':
      case '--activity-no-animation':
        break;
      default:
        // Intent.parseCommandArgs: a bare argument with ':' is a URI, with '/' a component, else a package.
        if (a.startsWith('-')) break;
        if (a.includes(':')) intent.data = a;
        else if (a.includes('/')) intent.component ??= a;
        else intent.pkg = a;
    }
  }
  return intent;
}

export function describeIntent(intent: IntentArgs, resolvedComponent?: string): string {
  const parts: string[] = [];
  if (intent.action) parts.push(`act=${intent.action}`);
  if (intent.categories.length > 0) parts.push(`cat=[${intent.categories.join(',')}]`);
  if (intent.data) parts.push(`dat=${intent.data}`);
  if (intent.pkg) parts.push(`pkg=${intent.pkg}`);
  if (intent.flags) parts.push(`flg=${intent.flags}`);
  const cmp = intent.component ?? resolvedComponent;
  if (cmp) parts.push(`cmp=${cmp}`);
  return `Intent { ${parts.join(' ')} }`;
}
