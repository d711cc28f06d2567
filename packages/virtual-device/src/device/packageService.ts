/**
 * adb's package manager service (`abb_exec:package…`): streamed installs, judged as
 * PackageManagerService would (packageInstaller.ts), and uninstalls.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { PackageSpec } from '../scenario/model.js';
import { UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE, type Instrumentation } from './instrumentation.js';
import { installStreamedApk } from './packageInstaller.js';
import type { SystemState } from './system.js';
import type { DeviceUi } from './ui.js';

/** The first staging session's number (`/data/app/vmdl<n>.tmp`), as large as the real ones. */
const FIRST_INSTALL_SESSION = 1_000_000_001;

export class PackageService {
  /** Staging sessions of streamed installs so far. */
  private installSessions = 0;

  constructor(
    private readonly system: SystemState,
    private readonly ui: DeviceUi,
    private readonly instrumentation: Instrumentation,
    /** The scenario's packages, remembered across uninstalls: a reinstall brings their behaviour back. */
    private readonly scenarioPackages: ReadonlyMap<string, PackageSpec>,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
  ) {}

  async install(args: readonly string[], apk: Buffer): Promise<string> {
    this.log('abb', `install ${args.join(' ')} (${apk.length} bytes)`);
    // Judged as PackageManagerService would (packageInstaller.ts): a text file is not an APK.
    const target = {
      installed: this.system.installed,
      known: this.scenarioPackages,
      addScreen: this.ui.addScreen.bind(this.ui),
      stopPackage: (pkg: string) => {
        if (pkg === UIA2_SERVER_PACKAGE || pkg === UIA2_TEST_PACKAGE) this.instrumentation.end('force-stop');
        if (pkg === 'io.appium.settings') this.system.settingsHelperForeground = false;
        this.system.killProcessesNamed(pkg);
        this.ui.removePackage(pkg);
      },
    };
    const answer = await installStreamedApk(args, apk, target, FIRST_INSTALL_SESSION + this.installSessions++);
    this.log('abb', `install answered ${answer.trim()}`);
    return answer;
  }

  /** `abb_exec:package\0uninstall\0pkg`, and an answer for any other abb command. */
  run(args: readonly string[]): string {
    const [service, verb, ...rest] = args;
    if (service === 'package' && verb === 'uninstall') {
      const pkg = rest.filter((a) => !a.startsWith('-')).pop() ?? '';
      return this.system.installed.delete(pkg) ? 'Success\n' : 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n';
    }
    if (service === 'package' && verb === 'install') return 'Success\n';
    return `Unknown abb command: ${args.join(' ')}\n`;
  }
}
