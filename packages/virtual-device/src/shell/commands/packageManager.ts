/** `pm`, `cmd package` and `appops`: the package manager (listing, paths, dumps, clearing, uninstalling). */
import { shortActivity, type PackageSpec } from '../../scenario/model.js';
import { UIA2_INSTRUMENTATION, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE } from '../../device/instrumentation.js';
import type { CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';
import { forceStopPackage } from './activityManager.js';
import { LAUNCHER_CATEGORY, MAIN_ACTION, parseIntent } from './intentArgs.js';

export function launcherComponent(pkg: PackageSpec): string | null {
  return pkg.launcher ? `${pkg.name}/${shortActivity(pkg.name, pkg.launcher.activity)}` : null;
}

export function registerPackageManager(table: CommandTable, device: ShellDevice): void {
  const { system } = device;
  const installed = (): PackageSpec[] => [...system.installed.values()];
  const forceStop = (pkgName: string): void => forceStopPackage(device, pkgName);

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
        // the launcher activity (docs/internals/device-quirks.md, "Remote mode").
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

  table.set('appops', (io) => {
    const [sub] = io.argv.slice(1);
    if (sub === 'get') io.out('No operations.\n');
    return 0;
  });
}
