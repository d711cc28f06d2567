import { parseDump } from '../../domain/tree/dump.js';
import { HarnessError } from '../../domain/errors.js';
import type { Clock, DeviceGateway } from '../../domain/ports.js';
import { isVisible, ownLabel } from '../../domain/tree/nodeFacts.js';
import { screenTitle } from '../../domain/tree/screenTitle.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { conditionOf, lockedError, requireUsableScreen } from '../screen/screenLock.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { afterOf, observed, readScreenAfterAdbAction } from '../screen/settledScreen.js';

export const SETTINGS_PACKAGE = 'com.android.settings';
/** Up to 8 s for the Apps list to show (docs/reference/contract.md, "Behaviour per tool", settings_open_apps). */
export const SETTINGS_WAIT_MS = 8_000;
export const SETTINGS_POLL_INTERVAL_MS = 500;
/** The row that proves Settings → Apps shows its list; newer Android versions word it "See all N apps". */
const APPS_MARKER = /^(All apps|See all \d+ apps)$/i;

/** settings_open_apps: the demonstration flow, Settings → Apps, entirely through adb. */
export class SettingsService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
    private readonly clock: Clock,
    private readonly reads: ScreenReads,
  ) {}

  /** As app_open: with session_id the UI session's device, polled through its page source (no dump under it). */
  async openApps(context: OperationContext, sessionId?: string, observe = true): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', async (device) => {
      if (sessionId === undefined) {
        sessions.assertNoSession();
        return this.open(device, () => device.dumpUi(), observe);
      }
      return sessions.use(sessionId, (session) => this.open(device, () => session.pageSource(), observe));
    });
  }

  private async open(device: DeviceGateway, source: () => Promise<string>, observe: boolean): Promise<Outcome> {
    await requireUsableScreen(device, 'opening Settings → Apps');
    try {
      await device.startApplicationSettings();
      const marker = await this.waitForAppsList(device, source);
      const written = await this.evidence.capture(device, 'settings-apps');
      const seen = observe
        ? await observed(readScreenAfterAdbAction(device, this.clock, source), (reading) =>
            this.reads.withVisual(device, reading),
          )
        : null;
      return {
        // The answer names no package (the marker says Settings is in front): `after` keeps its own.
        data: { screen_marker: marker, ...(seen ? { after: afterOf(this.reads, device, seen, undefined) } : {}) },
        evidence: written.ref,
      };
    } catch (error) {
      throw await this.evidence.attachFailure(device, 'settings-apps', error);
    }
  }

  private async waitForAppsList(device: DeviceGateway, source: () => Promise<string>): Promise<string> {
    const deadline = this.clock.monotonicMs() + SETTINGS_WAIT_MS;
    let foreground: string | null;
    for (;;) {
      // The window state and the dump at once; the marker only counts when Settings is in front.
      const [window, marker] = await Promise.allSettled([device.getWindowState(), this.findMarker(source)]);
      if (window.status === 'rejected') throw window.reason;
      const locked = lockedError(conditionOf(window.value, 'Awake'), 'opening Settings → Apps');
      if (locked) throw locked;
      foreground = window.value.foregroundPackage;
      if (foreground === SETTINGS_PACKAGE) {
        if (marker.status === 'rejected') throw marker.reason;
        if (marker.value) return marker.value;
      }
      if (this.clock.monotonicMs() + SETTINGS_POLL_INTERVAL_MS > deadline) break;
      await this.clock.sleep(SETTINGS_POLL_INTERVAL_MS);
    }
    if (foreground !== SETTINGS_PACKAGE) {
      throw new HarnessError(
        'SETTINGS_FOREGROUND_FAILED',
        `Settings did not come to the foreground (${foreground ?? 'no window'} is in front). ` +
          'Unlock the screen and dismiss any dialog (ui_get_tree shows it), then retry.',
      );
    }
    throw new HarnessError(
      'SETTINGS_FOREGROUND_FAILED',
      `Settings opened but the Apps list ('All apps') did not appear within ${SETTINGS_WAIT_MS / 1000} s. ` +
        'Call ui_get_tree to see where Settings is, then retry.',
    );
  }

  private async findMarker(source: () => Promise<string>): Promise<string | null> {
    try {
      const tree = parseDump(await source());
      const node = tree.nodes.find((candidate) => isVisible(candidate) && APPS_MARKER.test(ownLabel(candidate).trim()));
      if (!node) return null;
      // The row proves the Apps list is shown; the marker answered is what the screen is called in
      // its app bar ("Apps"), so it never reads as the All apps list the row leads to.
      return screenTitle(tree) ?? ownLabel(node).trim();
    } catch (error) {
      if (error instanceof HarnessError && error.code === 'UI_TREE_UNAVAILABLE') return null;
      throw error;
    }
  }
}
