import type { EvidenceRef } from '../../domain/envelope.js';
import { HarnessError } from '../../domain/errors.js';
import type { DeviceGateway, Logger } from '../../domain/ports.js';
import type { EvidenceWriter, WrittenEvidence } from './EvidenceWriter.js';
import { EvidencedError } from '../OperationRunner.js';
import {
  SECURE_WINDOW_WITHHELD,
  SecureScreenError,
  isWithheld,
  type WithheldEvidence,
} from '../../domain/evidence/secureScreen.js';

/** What an action's evidence step gives: the written screenshot, or on a secure screen the statement. */
export type ActionEvidence = WrittenEvidence | WithheldCapture;

/** An action's capture on a secure screen: no file, only the statement (width and height 0). */
export interface WithheldCapture {
  readonly ref: WithheldEvidence;
  readonly width: 0;
  readonly height: 0;
}

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

  /**
   * The action's screenshot, or on a secure screen (SecureScreenError) what can be kept of it:
   * nothing but the statement that Android withheld it, so the action still answers.
   */
  async capture(device: DeviceGateway, label: string): Promise<ActionEvidence> {
    let png: Buffer;
    try {
      png = await device.screencap();
    } catch (error) {
      if (!(error instanceof SecureScreenError)) throw error;
      this.logger.info('evidence withheld: the screen is secure', { label, window: error.window });
      return { ref: SECURE_WINDOW_WITHHELD, width: 0, height: 0 };
    }
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
      const { ref } = await this.capture(device, label);
      return isWithheld(ref) ? null : ref;
    } catch (error) {
      this.logger.warn('failure evidence could not be captured', { label, cause: String(error) });
      return null;
    }
  }
}
