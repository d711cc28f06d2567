/**
 * The trace viewer's reads (viewerReads.ts) and what the page is given for each step: numbers are
 * steps, every answer that carried a read counts (diffs and parts too), a ref is found in the read
 * that holds it, and the outline comes from the line's element record, else the tap's
 * acted_bounds, else the entry's bounds in the read that listed it.
 */
import { describe, expect, it } from 'vitest';
import type { Trace, TraceCall } from '../../../src/trace/readTrace.js';
import { TraceReads } from '../../../src/trace/viewerReads.js';
import { viewerHtml } from '../../../src/trace/viewer.js';

let line = 1;
function call(
  tool: string,
  args: Record<string, unknown>,
  data: Record<string, unknown>,
  extra: Partial<TraceCall> = {},
): TraceCall {
  line += 1;
  return {
    line,
    type: 'call',
    tool,
    arguments: args,
    started_at: '2026-12-07T10:00:00.000Z',
    duration_ms: 10,
    device: 'emulator-5554',
    ok: true,
    error_code: null,
    evidence: [],
    // The recorder's own pointer counts whole reads only; the viewer does not rely on it.
    read_line: null,
    envelope: { ok: true, data, evidence: null, error: null },
    ...extra,
  };
}

const SCREEN = { width: 1080, height: 2400 };

function session(): TraceCall[] {
  line = 1;
  return [
    call(
      'ui_get_tree',
      {},
      {
        read: 'r1',
        screen: SCREEN,
        actions: [
          { ref: 'e1', text: 'Search' },
          { ref: 'e2', text: 'Apps' },
        ],
      },
      { bounds: { e1: [0, 100, 1080, 100], e2: [0, 300, 1080, 100] } },
    ),
    call(
      'ui_type_text',
      { selector: { ref: 'e1' }, text: '[typed text]' },
      {
        after: {
          read: 'r2',
          diff_of: 'r1',
          added: [{ ref: 'e3', text: 'Wi-Fi' }],
          changed: [{ ref: 'e1', text: 'wifi' }],
        },
      },
    ),
    call(
      'ui_tap',
      { selector: { ref: 'e3' } },
      { after: { read: 'r3', actions: [] } },
      { acted_bounds: [0, 500, 1080, 120] },
    ),
    call('ui_tap', { selector: { ref: 'e2' } }, {}, { element: { bounds: [1, 2, 3, 4] } } as Partial<TraceCall>),
    call('ui_tap', { selector: { text: 'Apps' } }, {}),
  ];
}

interface PageStep {
  readonly read_before: { step: number; text: string } | null;
  readonly element_from: { step: number; text: string } | null;
  readonly outline: { box: number[]; label: string } | null;
  readonly outline_note: string | null;
}

function pageSteps(calls: TraceCall[]): PageStep[] {
  const trace: Trace = {
    dir: '/nowhere',
    name: 't',
    start: null,
    calls,
    skipped: 0,
    readRecord: () => null,
    evidence: () => null,
  };
  const html = viewerHtml(trace);
  const json = /<script id="trace-data" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
  return (JSON.parse(json) as { steps: PageStep[] }).steps;
}

describe('the trace viewer names steps and finds the read that holds a ref', () => {
  it('a diff counts as a read; its entries come first, then the read it patches', () => {
    const reads = new TraceReads(session());
    expect(reads.before(2)?.index).toBe(1);
    expect(reads.holderOf('e3', 2)?.at.index).toBe(1);
    // e1 was changed by the diff: the diff's own entry stands.
    expect(reads.holderOf('e1', 2)?.entry).toEqual({ ref: 'e1', text: 'wifi' });
    expect(reads.holderOf('e2', 2)?.at.index).toBe(0);
    // After step 3's whole read (empty), e2 is no longer on screen: the latest read that listed it.
    expect(reads.holderOf('e2', 3)?.at.index).toBe(0);
    expect(reads.holderOf('e9', 3)).toBeNull();
  });

  it('each step says, by step, what was read before it and which read listed the element', () => {
    const steps = pageSteps(session());
    expect(steps.map((s) => s.read_before?.step ?? null)).toEqual([null, 1, 2, 3, 3]);
    expect(steps[2]!.read_before?.text).toBe("step 2 (ui_type_text's after, a diff of step 1's read)");
    expect(steps[2]!.element_from).toEqual({
      step: 2,
      text: "step 2 (ui_type_text's after, a diff of step 1's read): entry e3",
    });
    // A ref from a diff: outlined where the tap pressed, labelled by the diff's entry.
    expect(steps[2]!.outline).toEqual({ box: [0, 500, 1080, 120], label: 'Wi-Fi' });
    // The element record wins over everything else.
    expect(steps[3]!.outline?.box).toEqual([1, 2, 3, 4]);
    expect(steps[3]!.element_from?.step).toBe(1);
    // A selector on a screen nothing lists any more: said so, by step.
    expect(steps[4]!.outline).toBeNull();
    expect(steps[4]!.outline_note).toMatch(
      /^The element is not among the entries of the screen read before this call \(step 3 \(ui_tap's after\)/,
    );
  });

  it('an entry found in a read that kept no positions is named, never called missing', () => {
    const calls = session().slice(0, 2);
    line = 3;
    calls.push(call('ui_type_text', { selector: { text: 'Wi-Fi' }, text: '[typed text]' }, {}));
    const steps = pageSteps(calls);
    expect(steps[2]!.outline).toBeNull();
    expect(steps[2]!.outline_note).toBe(
      "The element is entry e3 of step 2 (ui_type_text's after, a diff of step 1's read), which kept no positions (only ui_get_tree's lines keep them), and this call's line says nowhere where it acted, so it is not outlined.",
    );
    // The tree's own bounds outline an entry of the whole read.
    line = 3;
    const fromTree = pageSteps([...session().slice(0, 2), call('ui_tap', { selector: { text: 'Apps' } }, {})]);
    expect(fromTree[2]!.outline).toEqual({ box: [0, 300, 1080, 100], label: 'Apps' });
  });
});
