import type { EvidenceRef } from '../../domain/envelope.js';
import { HarnessError } from '../../domain/errors.js';
import type { DeviceGateway, Logger } from '../../domain/ports.js';
import type { EvidenceWriter, WrittenEvidence } from './EvidenceWriter.js';
import { EvidencedError } from '../OperationRunner.js';

/** Failures after which a screenshot would only wait on the same broken thing again. */
const NO_FAILURE_SCREENSHOT: ReadonlySet<string> = new Set([
  'OPERATION_TIMEOUT',
  // Remote mode refused an adb-only call: nothing happened on the device worth a screenshot.
  'NOT_AVAILABLE_REMOTELY',
  'EMULATOR_UNAVAILABLE',
  'EVIDENCE_WRITE_FAILED',
  'EMULATOR_BUSY',
  'INVALID_UI_SESSION',
  'APPIUM_UNAVAILABLE',
]);

/**
 * Screenshots as evidence. Captures go through `adb exec-out screencap`, never the
 * driver: screencap does not touch UiAutomation, works the same with or without an
 * Appium session, and leaves a UI session undisturbed.
 */
export class EvidenceCapture {
  constructor(
    private readonly writer: EvidenceWriter,
    private readonly logger: Logger,
  ) {}

  async capture(device: DeviceGateway, label: string): Promise<WrittenEvidence> {
    const png = await device.screencap();
    return this.writer.write(label, png);
  }

  /** Stores a capture the caller already holds, with a preview of it from the same decode (screen_capture). */
  writeWithPreview(
    label: string,
    png: Buffer,
    maxSide: number,
    maxBytes: number,
  ): Promise<WrittenEvidence & { preview: Buffer }> {
    return this.writer.writeWithPreview(label, png, maxSide, maxBytes);
  }

  /**
   * The error to report for an action that failed after reaching the device: the same
   * error with a `failure-<label>` screenshot attached when one can be taken.
   */
  async attachFailure(device: DeviceGateway, label: string, error: unknown): Promise<unknown> {
    if (!(error instanceof HarnessError) || error instanceof EvidencedError) return error;
    if (NO_FAILURE_SCREENSHOT.has(error.code)) return error;
    const evidence = await this.tryCapture(device, `failure-${label}`);
    return evidence ? new EvidencedError(error, evidence) : error;
  }

  private async tryCapture(device: DeviceGateway, label: string): Promise<EvidenceRef | null> {
    try {
      return (await this.capture(device, label)).ref;
    } catch (error) {
      this.logger.warn('failure evidence could not be captured', { label, cause: String(error) });
      return null;
    }
  }
}
