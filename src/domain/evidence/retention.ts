/**
 * The evidence retention bound: how many evidence files, and how many bytes of them, the evidence
 * directory keeps. Past either, the oldest go first (names sort by capture time), except what is
 * held: what an open UI session's answers gave out, and what a call has written and not answered yet.
 */

/** Each limit null when that bound is off. */
export interface RetentionBound {
  readonly maxFiles: number | null;
  readonly maxBytes: number | null;
}

/** One evidence file as the directory lists it. */
export interface StoredEvidence {
  readonly name: string;
  readonly bytes: number;
}

export function isBounded(bound: RetentionBound): boolean {
  return bound.maxFiles !== null || bound.maxBytes !== null;
}

const BYTES_PER_MB = 1024 * 1024;

/** `500 files or 200 MB`, `3 files`, `0.3 MB`: the bound as its variables give it; '' when unbounded. */
export function describeBound(bound: RetentionBound): string {
  const parts: string[] = [];
  if (bound.maxFiles !== null) parts.push(`${bound.maxFiles} ${bound.maxFiles === 1 ? 'file' : 'files'}`);
  if (bound.maxBytes !== null) parts.push(`${Number((bound.maxBytes / BYTES_PER_MB).toFixed(2))} MB`);
  return parts.join(' or ');
}

/**
 * The names to remove so that `files` (oldest first) fit `bound`: the oldest that are not held,
 * until both the count and the byte total fit. Held files count toward both totals (they take the
 * room), so when they alone exceed the bound, every file that is not held goes and the rest stays.
 */
export function planPrune(
  files: readonly StoredEvidence[],
  totalBytes: number,
  bound: RetentionBound,
  isHeld: (name: string) => boolean,
): string[] {
  let count = files.length;
  let bytes = totalBytes;
  const fits = (): boolean =>
    (bound.maxFiles === null || count <= bound.maxFiles) && (bound.maxBytes === null || bytes <= bound.maxBytes);
  const doomed: string[] = [];
  for (const file of files) {
    if (fits()) break;
    if (isHeld(file.name)) continue;
    doomed.push(file.name);
    count -= 1;
    bytes -= file.bytes;
  }
  return doomed;
}
