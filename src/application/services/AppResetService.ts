import { HarnessError } from '../../domain/errors.js';
import type { Clock, DeviceGateway } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { afterOf, observed, observerSource, readScreenAfterAdbAction } from '../screen/settledScreen.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

/**
 * app_stop and app_clear_data (toolset `apps`): an installed app put back, stopped (`am force-stop`)
 * or without its data (`pm clear`), through the closed list, each on an installed package only, with
 * evidence afterwards. Both change the screen, so both guards apply; as for app_open, without
 * session_id no UI session may be open, and with one they run inside that session (a flow file's
 * step, a task).
 */
export class AppResetService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
    private readonly clock: Clock,
    private readonly reads: ScreenReads,
  ) {}

  stop(context: OperationContext, pkg: PackageName, sessionId?: string, observe = true): Promise<Outcome> {
    return this.run(context, pkg, sessionId, 'app-stop', observe, async (device) => {
      await device.forceStop(pkg);
      return { stopped_package: pkg };
    });
  }

  clearData(context: OperationContext, pkg: PackageName, sessionId?: string, observe = true): Promise<Outcome> {
    return this.run(context, pkg, sessionId, 'app-clear-data', observe, async (device) => {
      if (!(await device.clearData(pkg))) {
        throw new HarnessError(
          'APP_NOT_FOUND',
          `The device refused to clear the data of ${pkg} (pm clear said Failed). Check it with app_list_installed.`,
        );
      }
      return { cleared_package: pkg };
    });
  }

  private async run(
    context: OperationContext,
    pkg: PackageName,
    sessionId: string | undefined,
    label: 'app-stop' | 'app-clear-data',
    observe: boolean,
    body: (device: DeviceGateway) => Promise<Record<string, unknown>>,
  ): Promise<Outcome> {
    const { access, sessions } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', (device) =>
      sessions.outsideOrIn(sessionId, async () => {
        if (!(await device.listPackages()).includes(pkg)) {
          throw new HarnessError(
            'APP_NOT_FOUND',
            `${pkg} is not installed on the device. Call app_list_installed to see the packages that are.`,
          );
        }
        try {
          const data = await body(device);
          const window = await device.getWindowState();
          const written = await this.evidence.capture(device, label);
          const seen = observe
            ? await observed(
                readScreenAfterAdbAction(device, this.clock, observerSource(sessions, device)),
                (reading) => this.reads.withVisual(device, reading),
              )
            : null;
          return {
            data: {
              ...data,
              foreground_package: window.foregroundPackage,
              ...(seen ? { after: afterOf(this.reads, device, seen, window.foregroundPackage) } : {}),
            },
            evidence: written.ref,
          };
        } catch (error) {
          throw await this.evidence.attachFailure(device, label, error);
        }
      }),
    );
  }
}
