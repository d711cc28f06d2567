/**
 * `include_raw` within the answer budget (answerBudget.ts): the raw XML goes out in parts.
 * A part that is not the whole XML carries `raw_truncated`, which says what was cut and how to
 * ask for the rest (`raw_offset`). Each call reads the screen again, so the note carries a digest
 * of the whole XML: two parts belong together only when their `sha256` agree. Pure: no I/O.
 */
import { endWithinBudget } from '../summary/answerBudget.js';
import { HarnessError } from '../errors.js';

export interface RawTruncated {
  /** Where this part starts and ends (exclusive), in UTF-16 units of the whole XML. */
  readonly offset: number;
  readonly returned_chars: number;
  readonly total_chars: number;
  /** The raw_offset of the next part; absent on the last one. */
  readonly next_offset?: number;
  /** First 16 hex digits of the SHA-256 of the whole XML (UTF-8). */
  readonly sha256: string;
  readonly hint: string;
}

export interface RawPart {
  readonly ui_tree: string;
  readonly raw_truncated?: RawTruncated;
}

const NEXT_HINT =
  "Cut to keep the answer under the clients' 25,000-token limit. For the rest call ui_get_tree " +
  'with include_raw: true and raw_offset: next_offset; each call reads the screen again, so parts ' +
  'belong together only when their sha256 agree.';
const LAST_HINT = 'The last part. Parts belong together only when their sha256 agree.';

/**
 * The part of `xml` from `offset` that fits `budget` wire bytes. Throws INVALID_ARGUMENT when the
 * offset is past the end (the screen changed since the part that gave it, or a wrong number).
 */
export function rawPart(xml: string, offset: number, budget: number, sha256: string): RawPart {
  if (offset > xml.length || (offset > 0 && offset === xml.length)) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      `Invalid raw_offset: ${offset} is past the end of the raw XML, which is now ${xml.length} characters ` +
        '(sha256 ' +
        sha256 +
        '): the screen may have changed. Start again without raw_offset.',
    );
  }
  let start = offset;
  // Never start inside a surrogate pair.
  const unit = xml.charCodeAt(start);
  if (start > 0 && unit >= 0xdc00 && unit <= 0xdfff) start -= 1;
  const end = endWithinBudget(xml, start, budget);
  if (start === 0 && end === xml.length) return { ui_tree: xml };
  const more = end < xml.length;
  return {
    ui_tree: xml.slice(start, end),
    raw_truncated: {
      offset: start,
      returned_chars: end - start,
      total_chars: xml.length,
      ...(more ? { next_offset: end } : {}),
      sha256,
      hint: more ? NEXT_HINT : LAST_HINT,
    },
  };
}
