/**
 * A secure screen (a window with FLAG_SECURE, as login and banking screens set it): Android's
 * SurfaceFlinger refuses every screenshot the shell or UiAutomation asks for while it is visible,
 * so there are no pixels to keep. Actions on it still work; their answer says the screen is secure
 * instead of naming a screenshot (docs/reference/contract.md, "Secure screens").
 */
import { HarnessError } from '../errors.js';

/** What an action keeps in place of its screenshot on a secure screen. */
export interface WithheldEvidence {
  readonly withheld: 'secure_window';
}

export const SECURE_WINDOW_WITHHELD: WithheldEvidence = { withheld: 'secure_window' };

export function isWithheld(value: unknown): value is WithheldEvidence {
  return typeof value === 'object' && value !== null && (value as { withheld?: unknown }).withheld === 'secure_window';
}

/**
 * The capture was refused because a secure window is on screen. The code stays
 * EVIDENCE_WRITE_FAILED for screen_capture, whose whole answer is the picture; an action's evidence
 * step turns it into SECURE_WINDOW_WITHHELD and goes on.
 */
export class SecureScreenError extends HarnessError {
  constructor(
    /** The secure window as `dumpsys window` names it (`pkg/.Activity`), or null when it has no component. */
    readonly window: string | null,
    options?: { cause?: unknown },
  ) {
    super(
      'EVIDENCE_WRITE_FAILED',
      `The screen is secure: ${window === null ? 'a window on it' : `the window of ${window}`} sets FLAG_SECURE, and Android withholds the pixels of a secure screen from every screenshot. ` +
        'Read it with ui_get_tree instead; actions on it still work and answer screen_secure: true in place of a screenshot.',
      options,
    );
  }
}
