import type { ApkRelativePath } from '../../domain/apk/apkArgument.js';
import { findInstallRefusal, installRefusedError } from '../../domain/apk/installFailure.js';
import type { ApkFolder, Clock } from '../../domain/ports.js';
import type { ScreenReads } from '../screen/ScreenReads.js';
import { afterOf, observed, observerSource, readScreenAfterAdbAction } from '../screen/settledScreen.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

/**
 * app_install (toolset `apps`). After the guards and the gate, the APK is checked and
 * read from the allowed folder before anything is sent: a refused file never reaches adb. Then
 * `pm list packages` tells whether it replaces an installed package, `adb install -r` streams the
 * checked copy, and the screen is captured. It changes the device, so both guards apply and no
 * UI session may be open (as app_open).
 */
export class AppInstallService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
    private readonly folder: ApkFolder,
    private readonly clock: Clock,
    private readonly reads: ScreenReads,
  ) {}

  /** Without session_id no UI session may be open (as app_open); with one it runs inside that session. */
  async install(context: OperationContext, apk: ApkRelativePath, sessionId?: string, observe = true): Promise<Outcome> {
    // The default device: with several online and none configured, DEVICE_AMBIGUOUS.
    const { access, sessions } = await this.router.bindingFor({ sessionId, reach: 'act' });
    return access.exclusive(context, 'act', (device) =>
      sessions.outsideOrIn(sessionId, async () => {
        const prepared = await this.folder.prepare(apk);
        try {
          const pkg = prepared.packageName;
          const replaced = (await device.listPackages()).includes(pkg);
          try {
            const outcome = await device.installApk(prepared.hostPath);
            if (!outcome.ok) throw installRefusedError(pkg, findInstallRefusal(outcome.output));
            const window = await device.getWindowState();
            const written = await this.evidence.capture(device, 'app-install');
            const seen = observe
              ? await observed(
                  readScreenAfterAdbAction(device, this.clock, observerSource(sessions, device)),
                  (reading) => this.reads.withVisual(device, reading),
                )
              : null;
            return {
              data: {
                installed_package: pkg,
                version_name: prepared.versionName,
                version_code: prepared.versionCode,
                replaced,
                size_bytes: prepared.sizeBytes,
                foreground_package: window.foregroundPackage,
                ...(seen ? { after: afterOf(this.reads, device, seen, window.foregroundPackage) } : {}),
              },
              evidence: written.ref,
            };
          } catch (error) {
            throw await this.evidence.attachFailure(device, 'app-install', error);
          }
        } finally {
          await prepared.release();
        }
      }),
    );
  }
}
