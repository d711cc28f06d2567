/** `am` and `monkey`: starting activities and services, force-stopping apps, running the instrumentation. */
import { qualifyActivity, shortActivity, type PackageSpec } from '../../scenario/model.js';
import { UIA2_INSTRUMENTATION, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE } from '../../device/instrumentation.js';
import type { CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';
import { describeIntent, LAUNCHER_CATEGORY, MAIN_ACTION, parseIntent, VIEW_ACTION } from './intentArgs.js';

/** `am force-stop`: ends the app's processes and removes its activities (what `pm clear` does too). */
export function forceStopPackage(device: ShellDevice, pkgName: string): void {
  const { ui, system } = device;
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
}

export function registerActivityManager(table: CommandTable, device: ShellDevice): void {
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
  const forceStop = (pkgName: string): void => forceStopPackage(device, pkgName);

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
}
