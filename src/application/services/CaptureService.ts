import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { EvidenceCapture } from '../evidence/EvidenceCapture.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

/** Longest side and size of the image block a client receives (the file keeps full resolution). */
export const PREVIEW_MAX_SIDE = 1568;
export const PREVIEW_MAX_BYTES = 1_000_000;

/** screen_capture: a full-resolution evidence file plus a preview small enough for a model. */
export class CaptureService {
  constructor(
    private readonly router: DeviceRouter,
    private readonly evidence: EvidenceCapture,
  ) {}

  /** `sessionId`: the UI session's device; the screenshot goes through adb either way (no UiAutomation). */
  async capture(context: OperationContext, sessionId?: string): Promise<Outcome> {
    const { access } = await this.router.bindingFor({ sessionId });
    return access.exclusive(context, 'adb', async (device) => {
      const png = await device.screencap();
      const written = await this.evidence.writeWithPreview('screen', png, PREVIEW_MAX_SIDE, PREVIEW_MAX_BYTES);
      return {
        data: { captured: true, width: written.width, height: written.height },
        evidence: written.ref,
        image: written.preview,
      };
    });
  }
}
