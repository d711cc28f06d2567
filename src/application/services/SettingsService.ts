import { parseDump } from '../../domain/tree/dump.js';
import { HarnessError } from '../../domain/errors.js';
import type { Clock, DeviceGateway } from '../../domain/ports.js';
import { isVisible, ownLabel } from '../../domain/tree/nodeFacts.js';
import type { DeviceAccess } from '../ownership/DeviceAccess.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { FlowSessions } from '../sessions/FlowSessions.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { conditionOf, lockedError, requireUsableScreen } from '../screen/screenLock.js';

export const SETTINGS_PACKAGE = 'com.android.settings';
/** CONTRACT §7: up to 8 s for the Apps list to show. */
export const SETTINGS_WAIT_MS = 8_000;
export const SETTINGS_POLL_INTERVAL_MS = 500;
/** The marker of Settings → Apps; newer Android versions word the entry "See all N apps". */
const APPS_MARKER = /^(All apps|See all \d+ apps)$/i;

/** settings_open_apps: the demonstration flow, Settings → Apps, entirely through adb. */
export class SettingsService {
  constructor(
    private readonly access: DeviceAccess,
    private readonly flows: FlowSessions,
    private readonly evidence: EvidenceCapture,
    private readonly clock: Clock,
  ) {}

  openApps(context: OperationContext): Promise<Outcome> {
    return this.access.exclusive(context, 'act', async (device) => {
      this.flows.assertNoFlow();
      await requireUsableScreen(device, 'opening Settings → Apps');
      try {
        await device.startApplicationSettings();
        const marker = await this.waitForAppsList(device);
        const written = await this.evidence.capture(device, 'settings-apps');
        return { data: { screen_marker: marker }, evidence: written.ref };
      } catch (error) {
        throw await this.evidence.attachFailure(device, 'settings-apps', error);
      }
    });
  }

  private async waitForAppsList(device: DeviceGateway): Promise<string> {
    const deadline = this.clock.monotonicMs() + SETTINGS_WAIT_MS;
    let foreground: string | null = null;
    for (;;) {
      // The window state and the dump at once; the marker only counts when Settings is in front.
      const [window, marker] = await Promise.allSettled([device.getWindowState(), this.findMarker(device)]);
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

  private async findMarker(device: DeviceGateway): Promise<string | null> {
    try {
      const tree = parseDump(await device.dumpUi());
      const node = tree.nodes.find((candidate) => isVisible(candidate) && APPS_MARKER.test(ownLabel(candidate).trim()));
      return node ? ownLabel(node).trim() : null;
    } catch (error) {
      if (error instanceof HarnessError && error.code === 'UI_TREE_UNAVAILABLE') return null;
      throw error;
    }
  }
}
