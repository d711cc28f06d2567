/** `am`, `pm`, `cmd`, `monkey`, `appops`: starting apps, the package manager and the instrumentation. */
import { qualifyActivity, shortActivity, type PackageSpec } from '../../scenario/model.js';
import { UIA2_INSTRUMENTATION, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE } from '../../device/instrumentation.js';
import type { CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';

const LAUNCHER_CATEGORY = 'android.intent.category.LAUNCHER';
const MAIN_ACTION = 'android.intent.action.MAIN';
const VIEW_ACTION = 'android.intent.action.VIEW';

interface IntentArgs {
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
function parseIntent(args: readonly string[]): IntentArgs {
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

function describeIntent(intent: IntentArgs, resolvedComponent?: string): string {
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

export function launcherComponent(pkg: PackageSpec): string | null {
  return pkg.launcher ? `${pkg.name}/${shortActivity(pkg.name, pkg.launcher.activity)}` : null;
}

export function registerPackageCommands(table: CommandTable, device: ShellDevice): void {
  const { ui, system } = device;
  const installed = (): PackageSpec[] => [...system.installed.values()];

  /** Screen for `pkg/act`, '' for a transparent activity, or null when the class does not exist. */
  const screenForComponent = (component: string): { pkg: PackageSpec; activity: string; screen: string } | null => {
    const slash = component.indexOf('/');
    if (slash < 0) return null;
    const pkgName = component.slice(0, slash);
    const pkg = system.installed.get(pkgName);
    if (!pkg) return null;
    const activity = qualifyActivity(pkgName, component.slice(slash + 1));
    if (pkg.launcher && qualifyActivity(pkgName, pkg.launcher.activity) === activity)
      return { pkg, activity, screen: pkg.launcher.screen };
    for (const [act, screen] of Object.entries(pkg.activities ?? {})) {
      if (qualifyActivity(pkgName, act) === activity) return { pkg, activity, screen };
    }
    return null;
  };

  /**
   * The activity a VIEW link resolves to: the packages' link filters by scheme (exactly) and host,
   * only the named package's when one is given. Scenarios declare one handler per link, so no
   * chooser is modelled: with several, the first package wins.
   */
  const linkTarget = (
    uri: string,
    onlyPkg: string | undefined,
  ): { pkg: PackageSpec; activity: string; screen: string } | null => {
    const colon = uri.indexOf(':');
    const scheme = uri.slice(0, colon);
    const host = /^\/\/([^/?#:@]*)/.exec(uri.slice(colon + 1))?.[1] ?? '';
    for (const pkg of installed()) {
      if (onlyPkg !== undefined && pkg.name !== onlyPkg) continue;
      const filter = pkg.links?.find((f) => f.scheme === scheme && (f.host === undefined || f.host === host));
      if (filter) return screenForComponent(`${pkg.name}/${filter.activity}`);
    }
    return null;
  };

  const forceStop = (pkgName: string): void => {
    if (pkgName === UIA2_SERVER_PACKAGE || pkgName === UIA2_TEST_PACKAGE) device.instrumentation.end('force-stop');
    if (pkgName === 'io.appium.settings') system.settingsHelperForeground = false;
    system.killProcessesNamed(pkgName);
    if (system.appPid(pkgName) !== null && !system.isBaseProcess(pkgName)) {
      device.logcat.add(
        'ActivityManager',
        `Force stopping ${pkgName} appid=10160 user=0: from pid 7001`,
        'I',
        541,
        'system',
        602,
      );
      system.endApp(pkgName);
    }
    ui.removePackage(pkgName);
  };

  const amStart = (io: CommandIo, args: readonly string[]): number => {
    const intent = parseIntent(args);
    let target: { pkg: PackageSpec; activity: string; screen: string } | null = null;
    if (intent.component) {
      const component = intent.component;
      target = screenForComponent(component);
      io.out(`Starting: ${describeIntent(intent)}\n`);
      if (!target) {
        const slash = component.indexOf('/');
        const pkg = component.slice(0, slash);
        io.out(
          `Error type 3\nError: Activity class {${pkg}/${shortActivity(pkg, component.slice(slash + 1))}} does not exist.\n`,
        );
        return 0;
      }
    } else if (intent.action && intentScreen(intent.action) !== undefined) {
      const screenId = intentScreen(intent.action) ?? '';
      const pkg = installed().find(
        (p) => Object.values(p.activities ?? {}).includes(screenId) || p.launcher?.screen === screenId,
      );
      if (pkg) {
        const act =
          pkg.launcher?.screen === screenId
            ? pkg.launcher.activity
            : (Object.entries(pkg.activities ?? {}).find(([, s]) => s === screenId)?.[0] ?? '');
        target = { pkg, activity: qualifyActivity(pkg.name, act), screen: screenId };
      }
      io.out(`Starting: ${describeIntent(intent)}\n`);
    } else if (intent.action === VIEW_ACTION && intent.data) {
      target = linkTarget(intent.data, intent.pkg);
      io.out(`Starting: ${describeIntent(intent)}\n`);
    } else if (intent.action === MAIN_ACTION && intent.pkg && system.installed.get(intent.pkg)?.launcher) {
      const pkg = system.installed.get(intent.pkg) as PackageSpec;
      target = {
        pkg,
        activity: qualifyActivity(pkg.name, pkg.launcher?.activity ?? ''),
        screen: pkg.launcher?.screen ?? '',
      };
      io.out(`Starting: ${describeIntent(intent)}\n`);
    } else {
      io.out(`Starting: ${describeIntent(intent)}\n`);
    }
    if (!target) {
      io.err(
        `Error: Activity not started, unable to resolve ${describeIntent({ ...intent, flags: intent.flags ?? '0x10000000' })}\n`,
      );
      return 0;
    }
    const wasRunning = ui.packagesInStack().includes(target.pkg.name);
    if (intent.stop) forceStop(target.pkg.name);
    const component = `${target.pkg.name}/${shortActivity(target.pkg.name, target.activity)}`;
    let outcome: 'started' | 'brought-to-front' = 'started';
    if (target.screen === '') {
      // A trampoline (io.appium.settings) that finishes at once; only its service keeps running.
      if (target.pkg.name === 'io.appium.settings') {
        if (!system.settingsHelperForeground) device.settingsHelperStarted();
        system.settingsHelperForeground = true;
      }
    } else {
      // A cold start of a slow app: its window comes up with no content for a while (launch-delay trait).
      if (!wasRunning || intent.stop) device.beginLaunch(target.pkg.name);
      const result = ui.startScreen(target.screen, { clearTask: intent.stop, reason: `am start ${component}` });
      if (result === 'brought-to-front') outcome = 'brought-to-front';
    }
    device.logcat.add(
      'ActivityTaskManager',
      `START u0 {${describeIntent(intent, component).slice(8, -2)}} from uid 2000`,
    );
    if (outcome === 'brought-to-front' && !intent.wait)
      io.out('Warning: Activity not started, its current task has been brought to the front\n');
    if (intent.wait) {
      const launchState = outcome === 'brought-to-front' ? 'HOT' : wasRunning && !intent.stop ? 'WARM' : 'COLD';
      const total = launchState === 'COLD' ? 412 : launchState === 'WARM' ? 187 : 58;
      if (outcome === 'brought-to-front')
        io.out('Warning: Activity not started, its current task has been brought to the front\n');
      io.out(
        `Status: ok\nLaunchState: ${launchState}\nActivity: ${component}\nTotalTime: ${total}\nWaitTime: ${total + 3}\nComplete\n`,
      );
    }
    return 0;
  };

  const intentScreen = (action: string): string | undefined => device.ui.intentScreen(action);

  const amInstrument = async (io: CommandIo, args: readonly string[]): Promise<number> => {
    const component = args
      .filter(
        (a, i) =>
          !a.startsWith('-') &&
          !['-e', '--user', '-p'].includes(args[i - 1] ?? '') &&
          !['-e'].includes(args[i - 2] ?? ''),
      )
      .pop();
    const wait = args.includes('-w');
    const testPkg = component?.split('/')[0] ?? '';
    if (
      component !== UIA2_INSTRUMENTATION ||
      !system.installed.has(testPkg) ||
      !system.installed.has(UIA2_SERVER_PACKAGE)
    ) {
      io.out(
        `INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{${component ?? ''}}\nINSTRUMENTATION_STATUS_CODE: -1\n`,
      );
      io.err(
        `android.util.AndroidException: INSTRUMENTATION_FAILED: ${component ?? ''}\n\tat com.android.commands.am.Instrument.run(Instrument.java:549)\n\tat com.android.server.am.ActivityManagerShellCommand.runInstrument(ActivityManagerShellCommand.java:1261)\n`,
      );
      return 1;
    }
    return device.instrumentation.run({ out: (c) => io.out(c), signal: io.signal, wait });
  };

  table.set('am', async (io) => {
    const [sub, ...args] = io.argv.slice(1);
    switch (sub) {
      case 'start':
      case 'start-activity':
        return amStart(io, args);
      case 'force-stop':
      case 'kill': {
        const pkg = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user').pop();
        if (pkg) forceStop(pkg);
        return 0;
      }
      case 'instrument':
        return amInstrument(io, args);
      case 'broadcast': {
        const intent = parseIntent(args);
        io.out(
          `Broadcasting: ${describeIntent(intent)}\nBroadcast completed: result=${system.settingsHelperForeground && intent.component?.startsWith('io.appium.settings') ? -1 : 0}\n`,
        );
        return 0;
      }
      case 'start-service':
      case 'start-foreground-service':
      case 'startservice': {
        const intent = parseIntent(args);
        if (intent.component?.startsWith('io.appium.settings/')) system.settingsHelperForeground = true;
        io.out(`Starting service: ${describeIntent(intent)}\n`);
        return 0;
      }
      case 'stack':
      case 'task':
        return 0;
      default:
        io.err(`Unknown command: ${sub ?? ''}\n`);
        return 255;
    }
  });

  const listPackages = (io: CommandIo, args: readonly string[], withVersions: boolean): number => {
    const thirdParty = args.includes('-3');
    const system_ = args.includes('-s');
    const showVersions = withVersions || args.includes('--show-versioncode');
    const filter = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--user').pop();
    const rows = installed()
      .filter(
        (p) =>
          (!thirdParty || p.thirdParty === true) &&
          (!system_ || p.thirdParty !== true) &&
          (filter === undefined || p.name.includes(filter)),
      )
      .map((p) => `package:${p.name}${showVersions ? ` versionCode:${p.versionCode ?? 1}` : ''}\n`);
    io.out(rows.join(''));
    return 0;
  };

  const pm = (io: CommandIo, args: readonly string[]): number => {
    const [sub, ...rest] = args;
    if (sub === 'list' && (rest[0] === 'packages' || rest[0] === 'package'))
      return listPackages(io, rest.slice(1), false);
    if (sub === 'list' && rest[0] === 'instrumentation') {
      if (system.installed.has(UIA2_TEST_PACKAGE))
        io.out(`instrumentation:${UIA2_INSTRUMENTATION} (target=${UIA2_SERVER_PACKAGE})\n`);
      return 0;
    }
    if (sub === 'path') {
      const name = rest.filter((a) => !a.startsWith('-')).pop() ?? '';
      if (!system.installed.has(name)) return 1;
      io.out(`package:/data/app/~~V1rtua1Dev1ce==/${name}-1/base.apk\n`);
      return 0;
    }
    if (sub === 'dump') return dumpPackage(io, rest[0] ?? '');
    if (
      sub === 'grant' ||
      sub === 'revoke' ||
      sub === 'enable' ||
      sub === 'disable-user' ||
      sub === 'set-permission-flags'
    )
      return 0;
    if (sub === 'clear') {
      // PackageManagerShellCommand.runClear: "Success", or "Failed" with exit 1 (unknown package); clearing kills the app.
      const name = rest.filter((a, i) => !a.startsWith('-') && rest[i - 1] !== '--user').pop() ?? '';
      if (!system.installed.has(name)) {
        io.out('Failed\n');
        return 1;
      }
      forceStop(name);
      io.out('Success\n');
      return 0;
    }
    if (sub === 'uninstall') {
      const name = rest.filter((a) => !a.startsWith('-')).pop() ?? '';
      if (!system.installed.delete(name)) {
        io.out('Failure [DELETE_FAILED_INTERNAL_ERROR]\n');
        return 1;
      }
      io.out('Success\n');
      return 0;
    }
    if (sub === 'install') {
      io.out('Success\n');
      return 0;
    }
    io.err(`Unknown command: ${sub ?? ''}\n`);
    return 255;
  };

  const dumpPackage = (io: CommandIo, name: string): number => {
    const pkg = system.installed.get(name);
    if (!pkg) {
      io.out(`Unable to find package: ${name}\n`);
      return 0;
    }
    const launcher = pkg.launcher
      ? `  Activity Resolver Table:\n    Non-Data Actions:\n        android.intent.action.MAIN:\n          d1e2f3a ${pkg.name}/${shortActivity(pkg.name, pkg.launcher.activity)} filter 4b5c6d7\n            Action: "android.intent.action.MAIN"\n            Category: "android.intent.category.LAUNCHER"\n\n`
      : '';
    io.out(
      `${launcher}Packages:\n  Package [${pkg.name}] (7f3a9c1):\n    userId=${pkg.thirdParty ? 10190 : 1000}\n    pkg=Package{2b8e4d0 ${pkg.name}}\n    codePath=/data/app/~~V1rtua1Dev1ce==/${pkg.name}-1\n    resourcePath=/data/app/~~V1rtua1Dev1ce==/${pkg.name}-1\n    versionCode=${pkg.versionCode ?? 1} minSdk=26 targetSdk=34\n    minExtensionVersions=[]\n    versionName=${pkg.versionName ?? '1.0'}\n    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]\n    timeStamp=2024-11-30 17:00:00\n    firstInstallTime=2024-11-30 17:00:00\n    lastUpdateTime=2024-11-30 17:00:00\n    installerPackageName=null\n    User 0: ceDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false\n      gids=[3003]\n      runtime permissions:\n`,
    );
    return 0;
  };

  table.set('pm', (io) => pm(io, io.argv.slice(1)));
  table.set('__dumpsys_package', (io) => dumpPackage(io, io.argv[1] ?? ''));

  table.set('cmd', (io) => {
    const [service, ...args] = io.argv.slice(1);
    if (service === 'package') {
      const [sub, ...rest] = args;
      if (sub === 'list' && rest[0] === 'packages') return listPackages(io, rest.slice(1), false);
      if (sub === 'resolve-activity') {
        const intent = parseIntent(rest.filter((a) => a !== '--brief' && a !== '--components'));
        const pkg = intent.pkg !== undefined ? system.installed.get(intent.pkg) : undefined;
        // AOSP Intent.parseCommandArgs: a bare argument with neither ':' nor '/' is a package, and
        // the intent built for it is ACTION_MAIN + CATEGORY_LAUNCHER; with an explicit -a the base
        // intent's categories are dropped (only the -c given stay). So `resolve-activity --brief
        // <pkg>` alone (appium-adb's resolveLaunchableActivity, behind mobile: activateApp) finds
        // the launcher activity (docs/device-quirks.md, "Remote mode").
        const barePackage = intent.pkg !== undefined;
        const action = intent.action ?? (barePackage ? MAIN_ACTION : undefined);
        const categories =
          barePackage && intent.action === undefined ? [...intent.categories, LAUNCHER_CATEGORY] : intent.categories;
        const wantsLauncher =
          categories.includes(LAUNCHER_CATEGORY) && (action === undefined || action === MAIN_ACTION);
        const component = pkg && wantsLauncher ? launcherComponent(pkg) : null;
        if (!component) {
          io.out('No activity found\n');
          return 0;
        }
        io.out(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n${component}\n`);
        return 0;
      }
      return pm(io, args);
    }
    if (
      service === 'notification' ||
      service === 'appops' ||
      service === 'wifi' ||
      service === 'overlay' ||
      service === 'statusbar' ||
      service === 'input_method' ||
      service === 'activity' ||
      service === 'settings'
    )
      return 0;
    io.err(`cmd: Can't find service: ${service ?? ''}\n`);
    return 20;
  });

  table.set('monkey', (io) => {
    const args = io.argv.slice(1);
    const p = args.indexOf('-p');
    const name = p >= 0 ? args[p + 1] : undefined;
    const pkg = name !== undefined ? system.installed.get(name) : undefined;
    if (!pkg?.launcher || pkg.launcher.screen === '') {
      io.out(`  bash arg: -p\n  bash arg: ${name ?? ''}\n** No activities found to run, monkey aborted.\n`);
      return 251;
    }
    ui.startScreen(pkg.launcher.screen, { reason: `monkey -p ${pkg.name}` });
    io.out(
      `  bash arg: -p\n  bash arg: ${pkg.name}\n  bash arg: -c\n  bash arg: ${LAUNCHER_CATEGORY}\n  bash arg: 1\nargs: [-p, ${pkg.name}, -c, ${LAUNCHER_CATEGORY}, 1]\n arg: "-p"\n arg: "${pkg.name}"\n arg: "-c"\n arg: "${LAUNCHER_CATEGORY}"\n arg: "1"\ndata="${pkg.name}"\ndata="${LAUNCHER_CATEGORY}"\nEvents injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n`,
    );
    return 0;
  });

  table.set('appops', (io) => {
    const [sub] = io.argv.slice(1);
    if (sub === 'get') io.out('No operations.\n');
    return 0;
  });
}
