/**
 * Every tool result must fit the clients' limits: Claude Code refuses a tool result over
 * MAX_MCP_OUTPUT_TOKENS (25,000 tokens by default). Tokenizers are dev-only here, so the
 * harness bounds what it can count for sure: the bytes of the JSON-RPC `result` as it goes
 * over the wire. The envelope is there twice (docs/reference/contract.md, "The envelope"): once as `structuredContent`,
 * once as the text block, where its JSON is escaped a second time, and clients may forward
 * either or both to the model. The figures behind the budget are in docs/reference/contract.md, "Size of an answer".
 * Pure: no I/O.
 */

/**
 * At most this many bytes of JSON-RPC result per answer. Measured with o200k: real dumps cost
 * about 0.26 token per wire byte, the worst text found (random printable ASCII) 0.755, CJK 0.63,
 * digits 0.33; so 26,000 bytes stay under 20,000 tokens, and under 26,000 even for a tokenizer
 * that spends one token per byte (a byte-level BPE token is never smaller than a byte).
 */
export const ANSWER_BUDGET_BYTES = 26_000;

/**
 * The share the screen summary may take. The summary is the product and raw XML a debugging aid,
 * so it gets most of the budget: the largest summary of a real dump in ../shared/fixtures costs
 * 22,866 bytes with refs and scrollables (App_Scrapper__summury_page; 21,158 before them). What is
 * left (at least 1,300 bytes) is the raw XML's part.
 */
export const SUMMARY_BUDGET_BYTES = 23_500;

/**
 * Room for what surrounds the data: the result's frame (`content`, `type`, `structuredContent`),
 * the envelope's own keys (`operation_id` and friends) and the raw XML's page note, each twice.
 */
export const ENVELOPE_RESERVE_BYTES = 1_200;

/** JSON's escape of one UTF-16 unit, as JSON.stringify writes it (well-formed: lone surrogates escaped). */
function escapedLength(unit: number, loneSurrogate: boolean): number {
  if (unit === 0x22 || unit === 0x5c) return 2;
  if (unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d) return 2;
  if (unit < 0x20 || loneSurrogate) return 6;
  return 1;
}

/** Wire bytes of one ASCII unit: itself escaped once (structuredContent) plus that escape escaped again (text block). */
const ASCII_WIRE = Array.from({ length: 128 }, (_, unit) => {
  const once = JSON.stringify(String.fromCharCode(unit)).slice(1, -1);
  return once.length + JSON.stringify(once).length - 2;
});

/**
 * The wire bytes one code point of a JSON string value costs in the result (both copies), and
 * how many UTF-16 units it spans. Non-ASCII stays unescaped in JSON: its UTF-8 bytes, twice.
 */
function wireCostAt(text: string, index: number): { bytes: number; units: number } {
  const unit = text.charCodeAt(index);
  if (unit < 0x80) return { bytes: ASCII_WIRE[unit] ?? 12, units: 1 };
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 8, units: 2 };
    return { bytes: escapedLength(unit, true) * 2 + 1, units: 1 };
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) return { bytes: escapedLength(unit, true) * 2 + 1, units: 1 };
  return { bytes: unit < 0x800 ? 4 : 6, units: 1 };
}

/** Wire bytes of a piece of envelope JSON (already serialised once): as is, plus escaped again. */
export function wireBytesOfJson(json: string): number {
  return Buffer.byteLength(json, 'utf8') + Buffer.byteLength(JSON.stringify(json), 'utf8') - 2;
}

/** Wire bytes of a whole tool result, as the JSON-RPC `result` carries it. */
export function wireBytesOfResult(result: unknown): number {
  return Buffer.byteLength(JSON.stringify(result), 'utf8');
}

/**
 * The end (exclusive, in UTF-16 units) of the longest part of `text` from `start` whose value costs
 * at most `budget` wire bytes inside a JSON string, both copies counted. Never splits a surrogate pair.
 */
export function endWithinBudget(text: string, start: number, budget: number): number {
  let spent = 0;
  let index = start;
  while (index < text.length) {
    const { bytes, units } = wireCostAt(text, index);
    if (spent + bytes > budget) break;
    spent += bytes;
    index += units;
  }
  return index;
}
