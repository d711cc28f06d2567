/**
 * The `{ref: "e12"}` selector form: a ref goes alone, no `within`, no other key.
 * Everything else is a selector and goes to parseSelector unchanged.
 */
import { HarnessError } from '../errors.js';
import type { Selector } from '../selectors/selector.js';
import { parseSelector } from '../validation.js';
import { safePreview } from '../tree/nodeFacts.js';

/**
 * `e` and a base-36 serial (lowercase letters and digits, no leading zero). Eight characters
 * of serial are more refs than a server mints in its life; anything else is refused before a
 * lookup.
 */
export const REF_PATTERN = /^[ev][1-9a-z][0-9a-z]{0,7}$/;

/** A visual ref (`v` + serial) names a line read from pixels, not an element (docs/reference/summary.md, "Visual refs"). */
export function isVisualRef(ref: string): boolean {
  return ref.startsWith('v');
}

/** What ui_tap and ui_type_text act on: a selector, or a ref from the last ui_get_tree answers. */
export type ActionTarget = { readonly selector: Selector } | { readonly ref: string };

export function isRefTarget(target: ActionTarget): target is { readonly ref: string } {
  return 'ref' in target;
}

/** The n-th ref (n ≥ 1). */
export function formatRef(serial: number): string {
  return `e${serial.toString(36)}`;
}

/** The n-th visual ref (n ≥ 1). */
export function formatVisualRef(serial: number): string {
  return `v${serial.toString(36)}`;
}

function refError(problem: string): HarnessError {
  return new HarnessError(
    'INVALID_SELECTOR',
    `Invalid selector: ${problem}. A ref goes alone, exactly as ui_get_tree gave it, e.g. {"ref": "e12"} ` +
      `(no "within", no other key); or send the entry's selector instead.`,
  );
}

/** A selector or `{ref}`; throws HarnessError('INVALID_SELECTOR'). */
export function parseActionTarget(input: unknown): ActionTarget {
  if (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    (input as Record<string, unknown>).ref !== undefined
  ) {
    const record = input as Record<string, unknown>;
    const others = Object.keys(record).filter((k) => k !== 'ref' && record[k] !== undefined);
    if (others.length > 0) {
      // A model that copies a whole flat entry ({"ref": "e5", "text": "Sign in", "role": …}) is told which half to send.
      throw refError(
        `a ref cannot be combined with ${others.map((k) => `'${safePreview(k, 30)}'`).join(', ')}: send only the ref, or only the selector keys without it`,
      );
    }
    const ref = record.ref;
    if (typeof ref !== 'string') throw refError(`selector.ref must be a string`);
    if (!REF_PATTERN.test(ref)) throw refError(`'${safePreview(ref, 20)}' is not a ref`);
    return { ref };
  }
  return { selector: parseSelector(input) };
}
