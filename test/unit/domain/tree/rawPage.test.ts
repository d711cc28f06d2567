import { describe, expect, it } from 'vitest';
import { rawPart } from '../../../../src/domain/tree/rawPage.js';
import { HarnessError } from '../../../../src/domain/errors.js';

// An ASCII letter costs 2 wire bytes (once in structuredContent, once in the text block), an emoji
// 8 (4 UTF-8 bytes, twice) over 2 UTF-16 units: answerBudget.ts, wireCostAt.
const SHA = '0123456789abcdef';
const NEXT =
  "Cut to keep the answer under the clients' 25,000-token limit. For the rest call ui_get_tree " +
  'with include_raw: true and raw_offset: next_offset; each call reads the screen again, so parts ' +
  'belong together only when their sha256 agree.';
const LAST = 'The last part. Parts belong together only when their sha256 agree.';

function refusal(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error('expected a refusal');
}

describe('rawPart: the raw XML in parts within the budget', () => {
  it('a whole XML that fits goes out alone, with no note', () => {
    expect(rawPart('abcdef', 0, 12, SHA)).toEqual({ ui_tree: 'abcdef' });
  });

  it('the first part of a cut XML says where the next starts, with the digest and the hint', () => {
    expect(rawPart('abcdef', 0, 8, SHA)).toEqual({
      ui_tree: 'abcd',
      raw_truncated: { offset: 0, returned_chars: 4, total_chars: 6, next_offset: 4, sha256: SHA, hint: NEXT },
    });
  });

  it('a middle part: from its offset, still with a next_offset', () => {
    expect(rawPart('abcdefgh', 2, 6, SHA)).toEqual({
      ui_tree: 'cde',
      raw_truncated: { offset: 2, returned_chars: 3, total_chars: 8, next_offset: 5, sha256: SHA, hint: NEXT },
    });
  });

  it('the last part has no next_offset and says it is the last', () => {
    expect(rawPart('abcdef', 4, 100, SHA)).toEqual({
      ui_tree: 'ef',
      raw_truncated: { offset: 4, returned_chars: 2, total_chars: 6, sha256: SHA, hint: LAST },
    });
  });

  it('an offset inside a surrogate pair starts at the pair, never half of it', () => {
    const xml = 'ab\u{1F600}cd';
    expect(rawPart(xml, 3, 100, SHA).raw_truncated).toMatchObject({ offset: 2, returned_chars: 4 });
    expect(rawPart(xml, 3, 100, SHA).ui_tree).toBe('\u{1F600}cd');
    // A high surrogate, or a plain unit, is a start as it is.
    expect(rawPart(xml, 2, 100, SHA).raw_truncated?.offset).toBe(2);
    expect(rawPart(xml, 1, 100, SHA).raw_truncated?.offset).toBe(1);
    // Both ends of the low range (U+10000's \uDC00, U+10FFFF's \uDFFF), and nothing past it (U+E000).
    expect(rawPart('a\u{10000}b', 2, 100, SHA).raw_truncated?.offset).toBe(1);
    expect(rawPart('a\u{10FFFF}b', 2, 100, SHA).raw_truncated?.offset).toBe(1);
    expect(rawPart('ab\uE000c', 2, 100, SHA).raw_truncated?.offset).toBe(2);
  });

  it('offset 0 of an XML that opens with a lone low surrogate stays 0', () => {
    expect(rawPart('\uDC00ab', 0, 100, SHA)).toEqual({ ui_tree: '\uDC00ab' });
  });

  it('an offset at or past the end is refused, naming the length and the digest', () => {
    for (const offset of [6, 7]) {
      const error = refusal(() => rawPart('abcdef', offset, 100, SHA));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toBe(
        `Invalid raw_offset: ${offset} is past the end of the raw XML, which is now 6 characters ` +
          `(sha256 ${SHA}): the screen may have changed. Start again without raw_offset.`,
      );
    }
    // Offset 0 of an empty XML is the whole of it, not past its end.
    expect(rawPart('', 0, 100, SHA)).toEqual({ ui_tree: '' });
  });
});
