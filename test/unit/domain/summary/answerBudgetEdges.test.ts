/**
 * The byte counting behind every answer's budget (src/domain/summary/answerBudget.ts), called directly:
 * each class of code point at its edges (the last ASCII unit, the first two- and three-byte UTF-8 ones,
 * each end of both surrogate ranges, pairs and lone halves), the exact budget kept and one byte less
 * refused, a start past 0, and the wire size of a piece of JSON to the byte. The oracle is JSON itself:
 * what a value costs is what JSON.stringify writes, escaped once more for the text block.
 */
import { describe, expect, it } from 'vitest';
import { endWithinBudget, wireBytesOfJson, wireBytesOfResult } from '../../../../src/domain/summary/answerBudget.js';

/** Wire bytes of `text` inside a JSON string, both copies, its quotes left out. */
const costOf = (text: string): number => wireBytesOfJson(JSON.stringify(text)) - wireBytesOfJson('""');

/** UTF-16 indexes where a cut may fall: never between the halves of a well-formed pair. */
function cutPoints(text: string): number[] {
  const points = [0];
  for (let i = 0; i < text.length;) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points.push(i);
  }
  return points;
}

/** The longest prefix from `start` whose cost is at most `budget`, found by trying every cut. */
function oracleEnd(text: string, start: number, budget: number): number {
  let best = start;
  for (const end of cutPoints(text)) {
    if (end > start && costOf(text.slice(start, end)) <= budget) best = end;
  }
  return best;
}

const EDGES: readonly [string, string, number][] = [
  ['a letter', 'a', 2],
  ['a quote', '"', 6],
  ['a backslash', '\\', 6],
  ['a newline', '\n', 5],
  ['a control character', '\u0001', 13],
  ['DEL, the last ASCII unit', '\u007f', 2],
  ['U+0080, the first two-byte one', '\u0080', 4],
  ['U+07FF, the last two-byte one', '\u07ff', 4],
  ['U+0800, the first three-byte one', '\u0800', 6],
  ['U+D7FF, just below the surrogates', '\ud7ff', 6],
  ['U+E000, just above them', '\ue000', 6],
  ['U+FFFF', '\uffff', 6],
  ['a pair from the first high and low halves', '\ud800\udc00', 8],
  ['a pair from the last high and low halves', '\udbff\udfff', 8],
  ['a lone high half (first)', '\ud800', 13],
  ['a lone high half (last)', '\udbff', 13],
  ['a lone low half (first)', '\udc00', 13],
  ['a lone low half (last)', '\udfff', 13],
];

describe('endWithinBudget: what one code point costs on the wire', () => {
  it.each(EDGES)('%s costs what JSON writes for it, both copies', (_name, text, bytes) => {
    expect(costOf(text)).toBe(bytes);
    expect(endWithinBudget(text, 0, bytes)).toBe(text.length);
    expect(endWithinBudget(text, 0, bytes - 1)).toBe(0);
  });

  it('a high half followed by something other than a low half is lone, and so is a low half first', () => {
    for (const text of ['\ud800a', '\udbff\ue000', '\ud800\udbff', '\udc00\ud800', '\ud800\ud7ff']) {
      for (let budget = 0; budget <= costOf(text) + 1; budget += 1) {
        expect(endWithinBudget(text, 0, budget), `${JSON.stringify(text)} in ${budget}`).toBe(
          oracleEnd(text, 0, budget),
        );
      }
    }
  });

  it('every budget over a string of every edge ends where the longest fitting prefix ends, from any start', () => {
    const text = EDGES.map(([, t]) => t).join('') + 'end\ud83d\ude00';
    const whole = costOf(text);
    const starts = cutPoints(text).filter((_p, i) => i % 4 === 0);
    for (const start of starts) {
      for (let budget = 0; budget <= whole + 2; budget += 1) {
        expect(endWithinBudget(text, start, budget), `from ${start} in ${budget}`).toBe(oracleEnd(text, start, budget));
      }
    }
  });

  it('a budget larger than the text ends at its end, never past it; a start at the end stays there', () => {
    expect(endWithinBudget('abc', 0, 1_000)).toBe(3);
    expect(endWithinBudget('\ud800', 0, 1_000)).toBe(1);
    expect(endWithinBudget('abc', 3, 1_000)).toBe(3);
    expect(endWithinBudget('', 0, 1_000)).toBe(0);
  });
});

describe('wire bytes of JSON and of a result', () => {
  it('counts a piece of JSON as is plus escaped once more, its outer quotes not counted twice', () => {
    // `{"a":"é"}`: 10 UTF-8 bytes as is; escaped again, `{\"a\":\"é\"}` is 14 bytes between its quotes.
    expect(wireBytesOfJson('{"a":"é"}')).toBe(10 + 14);
    expect(wireBytesOfJson('""')).toBe(2 + 4);
    expect(wireBytesOfJson('')).toBe(0);
    expect(wireBytesOfJson('1')).toBe(2);
  });

  it('counts a result as the UTF-8 bytes of its JSON', () => {
    expect(wireBytesOfResult({ a: 'é' })).toBe(10);
    expect(wireBytesOfResult([])).toBe(2);
  });
});
