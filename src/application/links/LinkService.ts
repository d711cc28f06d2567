import { HarnessError } from '../../domain/errors.js';
import { schemeOfLink, type LinkUri } from '../../domain/links/linkUri.js';
import type { Clock, DeviceGateway } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';
import { requireUsableScreen } from '../screen/screenLock.js';
import { readSettledForeground } from '../screen/settledForeground.js';
import { together } from '../time/together.js';
import { afterOf, observed, observerSource, readScreenAfterAdbAction } from '../screen/settledScreen.js';
import type { ScreenReads } from '../screen/ScreenReads.js';

const LABEL = 'app-open-link';

/**
 * app_open_link (toolset `apps`): a VIEW intent for a link, through the adb closed list as
 * app_open's launch is (`am start -W`, which returns once the activity is up), then the
 * foreground and a screenshot. The link itself never appears in a message or a log line: it may
 * carry a token; the scheme does.
 */
export class LinkService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
    private readonly clock: Clock,
    private readonly reads: ScreenReads,
  ) {}

  /** Without session_id no UI session may be open (a navigation under it); with one, the link opens inside that session. */
  async open(
    context: OperationContext,
    uri: LinkUri,
    pkg: PackageName | null,
    sessionId?: string,
    observe = true,
  ): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId, reach: 'act' });
    // `after` is read as the other adb-launched actions read it: through the UI session's Appium session when one is open.
    const source = (device: DeviceGateway) => (observe ? observerSource(sessions, device) : null);
    return access.exclusive(context, 'act', async (device) => {
      if (sessionId === undefined) {
        sessions.assertNoSession();
        return this.launch(device, uri, pkg, source(device));
      }
      return sessions.use(sessionId, () => this.launch(device, uri, pkg, source(device)));
    });
  }

  private async launch(
    device: DeviceGateway,
    uri: LinkUri,
    pkg: PackageName | null,
    observeWith: (() => Promise<string>) | null,
  ): Promise<Outcome> {
    // Behind the lock screen `am start` succeeds and nobody sees the app.
    await requireUsableScreen(device, 'opening the link');
    if (pkg !== null && !(await device.listPackages()).includes(pkg)) {
      throw new HarnessError(
        'APP_NOT_FOUND',
        `${pkg} is not installed on the device. Call app_list_installed to see the packages that are, or leave out package_name to let Android choose the app.`,
      );
    }
    try {
      const started = await device.openLink(uri, pkg);
      if (started.kind === 'unresolved') {
        const where = pkg === null ? 'No app on the device' : `${pkg}`;
        throw new HarnessError(
          'APP_NOT_FOUND',
          `${where} ${pkg === null ? 'opens' : 'does not open'} this ${schemeOfLink(uri)}: link (am start: unable to resolve Intent), so nothing was opened. ` +
            `Check the link's scheme and host against what the app declares${pkg === null ? '' : ', or leave out package_name to let Android choose'}; app_list_installed lists the apps.`,
        );
      }
      const [foreground, written] = await together(
        readSettledForeground(device, this.clock, { kind: 'focused' }),
        this.evidence.capture(device, LABEL),
      );
      const handledBy = started.component?.split('/')[0] ?? null;
      const seen =
        observeWith === null
          ? null
          : await observed(readScreenAfterAdbAction(device, this.clock, observeWith), (reading) =>
              this.reads.withVisual(device, reading),
            );
      return {
        data: {
          handled_by: handledBy,
          foreground_package: foreground.window.foregroundPackage,
          ...(foreground.settled ? {} : { foreground_settled: false }),
          ...(seen ? { after: afterOf(this.reads, device, seen, foreground.window.foregroundPackage) } : {}),
        },
        evidence: written.ref,
      };
    } catch (error) {
      throw await this.evidence.attachFailure(device, LABEL, error);
    }
  }
}
