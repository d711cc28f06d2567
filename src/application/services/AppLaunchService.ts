import { parseDump } from '../../domain/tree/dump.js';
import { HarnessError } from '../../domain/errors.js';
import type { Clock, DeviceGateway } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { isVisible } from '../../domain/tree/nodeFacts.js';
import { conditionOf, lockedError, requireUsableScreen } from '../screen/screenLock.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { afterOf, observed, readScreenAfterAdbAction } from '../screen/settledScreen.js';

/** app_open polls every 0.5 s for up to 6 s until the launched package is visible. */
export const APP_VISIBLE_TIMEOUT_MS = 6_000;
export const APP_POLL_INTERVAL_MS = 500;

/** app_list_installed and app_open: packages through adb, launches through `am start`, no Appium. */
export class AppLaunchService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
    private readonly clock: Clock,
    private readonly reads: ScreenReads,
  ) {}

  async listInstalled(context: OperationContext, sessionId?: string): Promise<Outcome> {
    const { access } = await this.router.bindingFor({ sessionId });
    return access.exclusive(context, 'adb', async (device) => {
      const packages = [...new Set(await device.listPackages())].sort();
      return { data: { packages, count: packages.length } };
    });
  }

  /**
   * Without session_id no UI session may be open (the launch and the visibility polling, a dump, would
   * pull the screen from under it). With one (a session names its device) the launch runs in
   * that session and the polling reads its page source instead of dumping.
   */
  async open(context: OperationContext, pkg: PackageName, sessionId?: string, observe = true): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', async (device) => {
      if (sessionId === undefined) {
        sessions.assertNoSession();
        return this.launch(device, pkg, async () => device.dumpUi(), observe);
      }
      return sessions.use(sessionId, (session) => this.launch(device, pkg, () => session.pageSource(), observe));
    });
  }

  private async launch(
    device: DeviceGateway,
    pkg: PackageName,
    source: () => Promise<string>,
    observe: boolean,
  ): Promise<Outcome> {
    // Behind the lock screen `am start` still succeeds, and nobody sees the app.
    await requireUsableScreen(device, `opening ${pkg}`);
    const component = await this.launcherComponent(device, pkg);
    try {
      await this.start(device, pkg, component);
      const foreground = await this.waitUntilVisible(device, pkg, source);
      const written = await this.evidence.capture(device, 'app-open');
      // The same source as the polling: the session's page source in a UI session, else a dump (none is open then).
      const seen = observe
        ? await observed(readScreenAfterAdbAction(device, this.clock, source), (reading) =>
            this.reads.withVisual(device, reading),
          )
        : null;
      return {
        data: {
          opened_package: pkg,
          foreground_package: foreground,
          ...(seen ? { after: afterOf(this.reads, device, seen, foreground) } : {}),
        },
        evidence: written.ref,
      };
    } catch (error) {
      throw await this.evidence.attachFailure(device, 'app-open', error);
    }
  }

  private async launcherComponent(device: DeviceGateway, pkg: PackageName): Promise<string> {
    const component = await device.resolveLauncherActivity(pkg);
    if (component) return component;
    const installed = (await device.listPackages()).includes(pkg);
    throw new HarnessError(
      'APP_NOT_FOUND',
      installed
        ? `${pkg} is installed but has no single launcher activity, so it cannot be opened from here. Pick another package from app_list_installed.`
        : `${pkg} is not installed on the device. Call app_list_installed to see the packages that are.`,
    );
  }

  private async start(device: DeviceGateway, pkg: PackageName, component: string): Promise<void> {
    try {
      await device.startActivity(component);
    } catch (error) {
      if (error instanceof HarnessError) throw error;
      throw new HarnessError(
        'APP_NOT_FOUND',
        `${pkg} could not be started. Check it with app_list_installed, then retry.`,
        {
          cause: error,
        },
      );
    }
  }

  /** Returns the foreground package once `pkg` shows nodes on screen; APP_NOT_FOUND after 6 s. */
  private async waitUntilVisible(
    device: DeviceGateway,
    pkg: PackageName,
    source: () => Promise<string>,
  ): Promise<string | null> {
    const deadline = this.clock.monotonicMs() + APP_VISIBLE_TIMEOUT_MS;
    let foreground: string | null;
    let lastDump: boolean | null = null;
    for (;;) {
      // The window state and the dump at once; the dump only counts when `pkg` (or no window) is in front.
      const [window, dump] = await Promise.allSettled([device.getWindowState(), this.showsNodesOf(source, pkg)]);
      if (window.status === 'rejected') throw window.reason;
      // The keyguard came up while the app was starting (the screen timed out): say so, not "not visible".
      const locked = lockedError(conditionOf(window.value, 'Awake'), `opening ${pkg}`);
      if (locked) throw locked;
      foreground = window.value.foregroundPackage;
      if (foreground === null || foreground === pkg) {
        if (dump.status === 'rejected') throw dump.reason;
        lastDump = dump.value;
        if (lastDump === true) return foreground ?? pkg;
      }
      if (this.clock.monotonicMs() + APP_POLL_INTERVAL_MS > deadline) break;
      await this.clock.sleep(APP_POLL_INTERVAL_MS);
    }
    // The window manager says it is in front and no dump could be read (a screen that never idles).
    if (foreground === pkg && lastDump === null) return foreground;
    if (foreground === pkg) {
      // A cold start can leave the app's window without content for seconds.
      throw new HarnessError(
        'APP_NOT_FOUND',
        `${pkg} was started and has focus, but its window still showed no content after ${APP_VISIBLE_TIMEOUT_MS / 1000} s (a slow cold start). Call ui_get_tree in a few seconds to see whether it appeared, or retry app_open.`,
      );
    }
    throw new HarnessError(
      'APP_NOT_FOUND',
      `${pkg} was started but did not become visible within ${APP_VISIBLE_TIMEOUT_MS / 1000} s` +
        `${foreground ? ` (${foreground} is in front)` : ''}. Call ui_get_tree to see the screen, then retry app_open.`,
    );
  }

  /** Whether the dump shows a visible node of `pkg`; null when no dump could be read. */
  private async showsNodesOf(source: () => Promise<string>, pkg: string): Promise<boolean | null> {
    try {
      const tree = parseDump(await source());
      return tree.nodes.some((node) => node.packageName === pkg && isVisible(node));
    } catch (error) {
      // A transient dump failure right after a launch is expected; the next poll retries.
      if (error instanceof HarnessError && error.code === 'UI_TREE_UNAVAILABLE') return null;
      throw error;
    }
  }
}
