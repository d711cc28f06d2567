/**
 * Every ui_get_tree answer within the clients' limits (Claude Code refuses a
 * tool result over 25,000 tokens). Measured on the whole JSON-RPC `result` the client receives
 * (text block and structuredContent), with a real tokenizer (gpt-tokenizer, o200k), on the largest
 * real dump and on synthetic screens built to be expensive per byte (CJK, digits, random ASCII).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ANSWER_BUDGET_BYTES, endWithinBudget, wireBytesOfJson } from '../../../src/domain/summary/answerBudget.js';
import { redactPasswordTexts } from '../../../src/domain/tree/dump.js';
import type { ScreenSummary } from '../../../src/domain/tree/screen.js';
import { buildHarness, drive, envelopeOf, type TestHarness } from '../../support/fakes/harness.js';
import { settingsAppsDump } from '../../support/fakes/screens.js';

const CLAUDE_CODE_LIMIT = 25_000;
const fixturesRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));

function fixtureFiles(): string[] {
  return ['dumps', 'appium-source'].flatMap((dir) => {
    const full = join(fixturesRoot, dir);
    return existsSync(full)
      ? readdirSync(full)
          .filter((f) => f.endsWith('.xml'))
          .map((f) => join(full, f))
      : [];
  });
}

function largestFixture(): { name: string; xml: string } {
  const largest = fixtureFiles().sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (largest === undefined) throw new Error('no fixture');
  return { name: largest.slice(fixturesRoot.length + 1), xml: readFileSync(largest, 'utf8') };
}

async function callTree(h: TestHarness, args: Record<string, unknown>): Promise<CallToolResult> {
  return drive(h.clock, h.call('ui_get_tree', args));
}

/** What the client receives as the JSON-RPC result: bytes on the wire and o200k tokens. */
function measured(result: CallToolResult): { bytes: number; tokens: number } {
  const wire = JSON.stringify(result);
  return { bytes: Buffer.byteLength(wire, 'utf8'), tokens: encode(wire).length };
}

/** Reads every part through raw_offset; checks each answer's size on the way. */
async function readAllParts(h: TestHarness): Promise<{ parts: string[]; worst: { bytes: number; tokens: number } }> {
  const parts: string[] = [];
  let worst = { bytes: 0, tokens: 0 };
  let offset: number | undefined = undefined;
  for (let guard = 0; guard < 1000; guard += 1) {
    const result = await callTree(
      h,
      offset === undefined ? { include_raw: true } : { include_raw: true, raw_offset: offset },
    );
    const size = measured(result);
    if (size.bytes > worst.bytes) worst = size;
    const data = envelopeOf(result).data as Record<string, unknown>;
    parts.push(String(data.ui_tree));
    const note = data.raw_truncated as { next_offset?: number; offset: number; total_chars: number } | undefined;
    if (note?.next_offset === undefined) return { parts, worst };
    expect(note.next_offset).toBe(note.offset + String(data.ui_tree).length);
    offset = note.next_offset;
  }
  throw new Error('more than 1000 parts');
}

/** A clickable row per label (each its own selector), inside the small settings screen. */
function screenOf(labels: readonly string[]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const rows = labels.map(
    (label, i) =>
      `<node index="${i}" text="${esc(label)}" resource-id="" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="${i % 2 === 0}" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,${800 + (i % 60) * 20}][1080,${820 + (i % 60) * 20}]" />`,
  );
  return settingsAppsDump(rows.join('\n'));
}

function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}
const cjk = (r: () => number, n: number) =>
  Array.from({ length: n }, () => String.fromCodePoint(0x4e00 + Math.floor(r() * 20000))).join('');
const digits = (r: () => number, n: number) => Array.from({ length: n }, () => String(Math.floor(r() * 10))).join('');
const ascii = (r: () => number, n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(33 + Math.floor(r() * 94))).join('');

describe('answer budget: wire cost', () => {
  it('endWithinBudget counts exactly what both copies of a JSON string cost on the wire', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const exact = wireBytesOfJson(JSON.stringify(text)) - wireBytesOfJson('""');
        expect(endWithinBudget(text, 0, exact)).toBe(text.length);
        if (exact > 0) expect(endWithinBudget(text, 0, exact - 1)).toBeLessThan(text.length);
      }),
    );
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(10);
    for (let budget = 0; budget < 100; budget += 1) expect(endWithinBudget(text, 0, budget) % 2).toBe(0);
  });
});

describe.skipIf(!present)('ui_get_tree on the largest real dump (../shared/fixtures)', () => {
  it('include_raw: every part under the budget, and the parts rebuild the XML exactly', async () => {
    const { name, xml } = largestFixture();
    const h = buildHarness();
    h.device.dump = xml;
    const first = await callTree(h, { include_raw: true });
    const firstSize = measured(first);
    const data = envelopeOf(first).data as Record<string, unknown>;
    expect(data.raw_truncated, name).toEqual(
      expect.objectContaining({
        offset: 0,
        total_chars: redactPasswordTexts(xml).length,
        sha256: expect.stringMatching(/^[0-9a-f]{16}$/),
      }),
    );
    expect(firstSize.bytes).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect(firstSize.tokens).toBeLessThan(20_000);
    const { parts, worst } = await readAllParts(h);
    expect(parts.join('')).toBe(redactPasswordTexts(xml));
    expect(worst.bytes).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
    expect(worst.tokens).toBeLessThan(CLAUDE_CODE_LIMIT);
    // Every part belongs to the same reading: one digest.
    console.error(
      `[budget] ${name}: ${xml.length} chars, first answer ${firstSize.bytes} B / ${firstSize.tokens} tokens, ${parts.length} parts`,
    );
  });

  it('without include_raw the answer is the summary, whole (no cut on a real screen)', async () => {
    const h = buildHarness();
    h.device.dump = largestFixture().xml;
    const result = await callTree(h, {});
    const data = envelopeOf(result).data as unknown as ScreenSummary & Record<string, unknown>;
    expect(data.truncated).toBeUndefined();
    expect(data).not.toHaveProperty('raw_truncated');
    expect(measured(result).bytes).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
  });
});

describe.skipIf(!present)('ui_get_tree on every real dump (../shared/fixtures)', () => {
  it('no summary is cut by size, and the first include_raw answer fits the budget', async () => {
    const h = buildHarness();
    const sizes: string[] = [];
    for (const file of fixtureFiles()) {
      h.device.dump = readFileSync(file, 'utf8');
      const plain = envelopeOf(await callTree(h, {})).data as Record<string, unknown>;
      // A count cap may mark a real screen truncated; a size cut would show as fewer actions than min(plans, 120).
      const counts = plain.counts as { actions: number; texts: number } | undefined;
      if (counts) {
        expect((plain.actions as unknown[]).length, file).toBe(Math.min(counts.actions, 120));
        expect((plain.texts as unknown[]).length, file).toBe(Math.min(counts.texts, 200));
      }
      const raw = await callTree(h, { include_raw: true });
      const size = measured(raw);
      expect(size.bytes, file).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
      expect(size.tokens, file).toBeLessThan(20_000);
      sizes.push(`${size.tokens}`);
    }
    expect(sizes.length).toBeGreaterThan(40);
  }, 120_000);
});

describe('ui_get_tree on synthetic huge screens', () => {
  const cases: Array<[string, (r: () => number) => string[]]> = [
    ['CJK labels', (r) => Array.from({ length: 300 }, (_, i) => `${i} ${cjk(r, 240)}`)],
    ['long numbers', (r) => Array.from({ length: 300 }, (_, i) => `${i} ${digits(r, 250)}`)],
    ['random printable ASCII', (r) => Array.from({ length: 300 }, (_, i) => `${i} ${ascii(r, 250)}`)],
  ];
  for (const [kind, labels] of cases) {
    it(`${kind}: the summary is cut to its share, marked, consistent, and every answer stays under the limit`, async () => {
      const h = buildHarness();
      h.device.dump = screenOf(labels(seeded(kind.length)));
      const plain = await callTree(h, {});
      const summary = envelopeOf(plain).data as unknown as ScreenSummary;
      expect(summary.truncated).toBe(true);
      expect(summary.counts?.actions).toBeGreaterThan(summary.actions.length);
      for (const finding of summary.layout_findings ?? []) {
        if ('actions' in finding) for (const i of finding.actions) expect(i).toBeLessThan(summary.actions.length);
      }
      const plainSize = measured(plain);
      expect(plainSize.bytes).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
      expect(plainSize.tokens).toBeLessThan(20_000);
      const { parts, worst } = await readAllParts(h);
      expect(parts.join('')).toBe(h.device.dump);
      expect(worst.bytes).toBeLessThanOrEqual(ANSWER_BUDGET_BYTES);
      expect(worst.tokens).toBeLessThan(20_000);
      // Every part is a whole ui_get_tree call, tokenised with o200k: 2-4 s on a quiet machine, so
      // the unit project's 20 s would fail on a loaded 2-core runner.
    }, 60_000);
  }

  it('the same summary with and without include_raw', async () => {
    const h = buildHarness();
    h.device.dump = screenOf(cases[0]![1](seeded(1)));
    const plain = envelopeOf(await callTree(h, {})).data as Record<string, unknown>;
    const raw = envelopeOf(await callTree(h, { include_raw: true })).data as Record<string, unknown>;
    // Each read has its own id; everything else is the same.
    const { ui_tree: _tree, raw_truncated: _note, read: rawRead, ...summary } = raw;
    const { read: plainRead, ...plainSummary } = plain;
    expect(summary).toEqual(plainSummary);
    expect(rawRead).not.toBe(plainRead);
  });
});

describe('raw_offset', () => {
  it('a small screen comes whole, without raw_truncated', async () => {
    const h = buildHarness();
    const data = envelopeOf(await callTree(h, { include_raw: true })).data as Record<string, unknown>;
    expect(data.ui_tree).toBe(settingsAppsDump());
    expect(data).not.toHaveProperty('raw_truncated');
  });

  it('implies include_raw; refuses include_raw: false with it, a negative, a fraction, a string, and an offset past the end', async () => {
    const h = buildHarness();
    const part = envelopeOf(await callTree(h, { raw_offset: 10 })).data as Record<string, unknown>;
    expect(part.ui_tree).toBe(settingsAppsDump().slice(10));
    expect(part.raw_truncated).toEqual(expect.objectContaining({ offset: 10, total_chars: settingsAppsDump().length }));
    expect(part.raw_truncated).not.toHaveProperty('next_offset');
    for (const args of [
      { include_raw: false, raw_offset: 0 },
      { raw_offset: -1 },
      { raw_offset: 1.5 },
      { raw_offset: '10' },
      { raw_offset: settingsAppsDump().length },
    ]) {
      const envelope = envelopeOf(await callTree(h, args));
      expect(envelope.error?.code, JSON.stringify(args)).toBe('INVALID_ARGUMENT');
      expect(envelope.error?.message).toContain('raw_offset');
    }
  });
});
