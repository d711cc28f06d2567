/**
 * Evidence names: `YYYYMMDD-HHMMSS-NNNNNN-label.png`, in UTC. The six digits are the
 * microseconds within the second (as in the seed's names), so sorting names sorts captures by
 * time. The writer keeps them unique: its stamps move forward by 1 µs on a tie, and files are
 * created exclusively.
 */

export const EVIDENCE_LABELS = [
  'screen',
  'app-open',
  'ui-tap',
  'ui-long-press',
  'ui-type',
  'ui-scroll',
  'device-back',
  'device-key',
  'app-stop',
  'app-clear-data',
  'app-install',
  'settings-apps',
] as const;
export type EvidenceLabel = (typeof EVIDENCE_LABELS)[number] | `failure-${(typeof EVIDENCE_LABELS)[number]}`;

/** Exactly the shape `formatEvidenceName` issues; the only ids the artifact resource serves. */
export const ARTIFACT_ID_PATTERN = /^\d{8}-\d{6}-\d{6}-[a-z0-9-]{1,40}\.png$/;

const LABEL_PATTERN = /^[a-z0-9-]{1,40}$/;

export function isArtifactId(value: unknown): value is string {
  return typeof value === 'string' && ARTIFACT_ID_PATTERN.test(value);
}

export function failureLabel(label: (typeof EVIDENCE_LABELS)[number]): EvidenceLabel {
  return `failure-${label}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * `YYYYMMDD-HHMMSS-NNNNNN-label.png` (UTC) for a capture at `epochMicros` microseconds since the
 * Unix epoch; NNNNNN is the microsecond within the second. Throws on a label or time the pattern
 * would not accept.
 */
export function formatEvidenceName(epochMicros: number, label: string): string {
  if (!Number.isSafeInteger(epochMicros) || epochMicros < 0) {
    throw new RangeError('evidence time must be a non-negative whole number of microseconds');
  }
  if (!LABEL_PATTERN.test(label)) throw new RangeError('evidence label must match [a-z0-9-]{1,40}');
  // A safe integer of microseconds ends in 2255: the year always has four digits.
  const date = new Date(Math.floor(epochMicros / 1000));
  const stamp =
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1, 2)}${pad(date.getUTCDate(), 2)}-` +
    `${pad(date.getUTCHours(), 2)}${pad(date.getUTCMinutes(), 2)}${pad(date.getUTCSeconds(), 2)}`;
  return `${stamp}-${pad(epochMicros % 1_000_000, 6)}-${label}.png`;
}
