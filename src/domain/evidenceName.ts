/**
 * CONTRACT §9 evidence names: `YYYYMMDD-HHMMSS-NNNNNN-label.png`, in UTC. The six digits are
 * random (chosen by the caller through the RandomSource port) so two captures in the same
 * millisecond differ; the writer still creates files exclusively and retries on a clash.
 */

export const EVIDENCE_LABELS = [
  'screen',
  'app-open',
  'ui-tap',
  'ui-type',
  'ui-scroll',
  'device-back',
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

/** `YYYYMMDD-HHMMSS-NNNNNN-label.png` (UTC). Throws on a label or number the pattern would not accept. */
export function formatEvidenceName(date: Date, sixDigits: number | string, label: string): string {
  // A number in [0, 999999] or its six-digit string form; both render the same.
  const digits = typeof sixDigits === 'string' && /^\d{6}$/.test(sixDigits) ? Number(sixDigits) : sixDigits;
  if (typeof digits !== 'number' || !Number.isInteger(digits) || digits < 0 || digits > 999_999) {
    throw new RangeError('evidence suffix must be an integer in [0, 999999] or six digits');
  }
  if (!LABEL_PATTERN.test(label)) throw new RangeError('evidence label must match [a-z0-9-]{1,40}');
  const time = date.getTime();
  if (!Number.isFinite(time)) throw new RangeError('evidence date is invalid');
  const year = date.getUTCFullYear();
  if (year < 1000 || year > 9999) throw new RangeError('evidence year must have four digits');
  const stamp =
    `${pad(year, 4)}${pad(date.getUTCMonth() + 1, 2)}${pad(date.getUTCDate(), 2)}-` +
    `${pad(date.getUTCHours(), 2)}${pad(date.getUTCMinutes(), 2)}${pad(date.getUTCSeconds(), 2)}`;
  return `${stamp}-${pad(digits, 6)}-${label}.png`;
}
