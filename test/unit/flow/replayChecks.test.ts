/**
 * The flow runner's replay checks with a scripted server: inputs (given, missing, secret), the
 * screen expected after a step, and repair of a step whose selector matches nothing, on drifted
 * screens (a label renamed, an id changed) and on a tie (no repair, a clear refusal).
 */
import { describe, expect, it } from 'vitest';
import { validateFlow, type FlowElement, type FlowFile } from '../../../src/flow/flowFile.js';
import type { ActedElement } from '../../../src/domain/summary/actedElement.js';
import {
  FlowInputError,
  parseInputOptions,
  redactSecrets,
  resolveInputs,
  withInputs,
} from '../../../src/flow/flowInputs.js';
import { runFlow, summarizeReport, type FlowClient, type FlowEnvelope } from '../../../src/flow/runFlow.js';
import { decideRepair, REPAIR_THRESHOLD } from '../../../src/flow/repair/scoreCandidates.js';
import { candidatesOnScreen } from '../../../src/flow/repair/screenCandidates.js';

const APP = 'com.example.notes';

function ok(tool: string, data: Record<string, unknown>): FlowEnvelope {
  return { ok: true, operation_id: 'k3v9x0q7m2ta', tool, data, evidence: null, error: null };
}
function notFound(tool: string): FlowEnvelope {
  return {
    ok: false,
    operation_id: 'x',
    tool,
    data: {},
    evidence: null,
    error: { code: 'UI_ELEMENT_NOT_FOUND', message: 'No element matches the selector.' },
  };
}

/** A node of a uiautomator dump. */
function row(text: string, id: string, top: number, extra = ''): string {
  return `<node index="0" text="${text}" resource-id="${id}" class="android.widget.TextView" package="${APP}" content-desc="" clickable="true" enabled="true" focusable="true" bounds="[0,${top}][1080,${top + 150}]" ${extra}/>`;
}
function screen(rows: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="${APP}" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2400]"><node index="0" text="" resource-id="" class="android.widget.LinearLayout" package="${APP}" content-desc="Folders" clickable="false" enabled="true" bounds="[0,200][1080,2000]">${rows.join('')}</node></node></hierarchy>`;
}

const BASE = [
  row('Inbox', `${APP}:id/folder`, 300),
  row('Drafts', `${APP}:id/folder`, 450),
  row('Archive', `${APP}:id/folder`, 600),
];

/** The element the step recorded: what the server's record of `Drafts` on BASE says. */
function recordedDrafts(): FlowElement {
  const drafts = candidatesOnScreen(screen(BASE), APP).find((c) => c.label === 'Drafts');
  if (!drafts) throw new Error('no Drafts on the base screen');
  return asRecorded(drafts);
}

/** The element as a flow file holds it (read back from JSON). */
function asRecorded(element: ActedElement): FlowElement {
  return JSON.parse(JSON.stringify(element)) as FlowElement;
}

/** A server whose tree and taps follow `xml`: a tap by text finds a row with that text. */
class ScreenClient implements FlowClient {
  readonly calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  constructor(private readonly xml: string) {}
  callTool(name: string, args: Record<string, unknown>): Promise<{ envelope: FlowEnvelope; isError: boolean }> {
    this.calls.push({ name, args });
    const answer = (envelope: FlowEnvelope) => Promise.resolve({ envelope, isError: !envelope.ok });
    const texts = [...this.xml.matchAll(/ text="([^"]+)"/g)].map((m) => m[1]);
    switch (name) {
      case 'ui_session_open':
        return answer(ok(name, { session_id: 'sess_x' }));
      case 'ui_get_tree':
        return answer(
          ok(name, {
            read: `r${this.calls.length}`,
            foreground_package: APP,
            texts: [],
            actions: texts.map((text) => ({ text })),
            ...(args.include_raw === true ? { ui_tree: this.xml } : {}),
          }),
        );
      case 'ui_tap': {
        const selector = args.selector as Record<string, unknown>;
        if (typeof selector.text !== 'string' || !texts.includes(selector.text)) return answer(notFound(name));
        return answer(
          ok(name, {
            element_label: selector.text,
            foreground_package: APP,
            after: { read: `r${this.calls.length}`, texts: ['Drafts folder'], actions: [{ text: 'Back' }] },
          }),
        );
      }
      case 'ui_type_text':
        return answer(ok(name, { characters_sent: 4, foreground_package: APP }));
      default:
        return answer(ok(name, { foreground_package: APP }));
    }
  }
}

const tapDrafts = (): FlowFile => ({
  package_name: APP,
  steps: [
    {
      tool: 'ui_tap',
      arguments: { selector: { text: 'Drafts' } },
      expect: { package: APP, texts: ['Drafts folder'] },
      element: { ...recordedDrafts() },
    },
  ],
});

describe('flow inputs', () => {
  it('come from --input first, then ANDROID_MCP_INPUT_<NAME>; every missing one is named before anything starts', () => {
    const declared = { email: {}, password: { secret: true }, code: {} };
    expect(
      resolveInputs(
        declared,
        { email: 'a@b.c' },
        { ANDROID_MCP_INPUT_PASSWORD: 'pw', ANDROID_MCP_INPUT_CODE: 'x' },
        'f',
      ),
    ).toEqual({ email: 'a@b.c', password: 'pw', code: 'x' });
    expect(() => resolveInputs(declared, { email: 'a' }, {}, 'login.json')).toThrow(
      /login\.json needs inputs it was not given: password, code\. .*ANDROID_MCP_INPUT_PASSWORD, ANDROID_MCP_INPUT_CODE/,
    );
    expect(() => resolveInputs(declared, { emial: 'a' }, {}, 'f')).toThrow(/declares no input emial/);
    expect(parseInputOptions(['email=a=b', 'code='])).toEqual({ email: 'a=b', code: '' });
    expect(() => parseInputOptions(['Email'])).toThrow(FlowInputError);
    expect(withInputs({ text: 'hi ${email}!', n: 1 }, { email: 'x@y' })).toEqual({ text: 'hi x@y!', n: 1 });
    expect(redactSecrets({ m: ['said hunter2 twice hunter2'] }, [['password', 'hunter2']])).toEqual({
      m: ['said [secret input password] twice [secret input password]'],
    });
  });

  it('a ${name} the flow does not declare is a problem of the file, by step', async () => {
    await expect(
      validateFlow({
        package_name: APP,
        inputs: { email: {} },
        steps: [{ tool: 'ui_type_text', arguments: { selector: { input_hint: 'Email' }, text: '${emial}' } }],
      }),
    ).rejects.toThrow(/step 1 \(ui_type_text\): \$\{emial\} names no input of the flow/);
  });

  it('a runner given no value for a declared input (a REST task) calls nothing and says which', async () => {
    const client = new ScreenClient(screen(BASE));
    const report = await runFlow(
      {
        package_name: APP,
        inputs: { query: {} },
        steps: [{ tool: 'ui_type_text', arguments: { selector: { input_hint: 'Search' }, text: '${query}' } }],
      },
      client,
      { source: 'task' },
    );
    expect(client.calls).toEqual([]);
    expect(report).toMatchObject({ passed: false, steps_run: 0, first_error: { code: 'FLOW_INPUT_MISSING' } });
    expect(report.first_error?.message).toMatch(/needs inputs it was not given: query/);
  });

  it('are typed in the call, and a secret never reaches the report', async () => {
    const client = new ScreenClient(screen(BASE));
    const flow: FlowFile = {
      package_name: APP,
      inputs: { password: { secret: true } },
      steps: [{ tool: 'ui_type_text', arguments: { selector: { input_hint: 'Password' }, text: '${password}' } }],
    };
    // A server that echoes the value back (an error message quoting it) must not put it in the report.
    const echoing: FlowClient = {
      callTool: async (name, args) => {
        const result = await client.callTool(name, args);
        return name === 'ui_type_text'
          ? { ...result, envelope: { ...result.envelope, data: { ...result.envelope.data, echo: String(args.text) } } }
          : result;
      },
    };
    const report = await runFlow(flow, echoing, { source: 'f.json', inputs: { password: 'hunter2' } });
    expect(report.passed).toBe(true);
    expect(client.calls.find((c) => c.name === 'ui_type_text')?.args.text).toBe('hunter2');
    const written = JSON.stringify(report) + summarizeReport(report).join('\n');
    expect(written).not.toContain('hunter2');
    expect(written).toContain('${password}');
    expect(written).toContain('[secret input password]');
  });
});

describe('replays that check where they are', () => {
  it('a step whose screen after it differs stops there with expected … found …', async () => {
    const flow = tapDrafts();
    flow.steps[0] = { ...flow.steps[0]!, expect: { package: APP, texts: ['Drafts list', 'Compose'] } };
    const report = await runFlow(flow, new ScreenClient(screen(BASE)), { source: 'f.json' });
    expect(report.passed).toBe(false);
    expect(report.first_error).toMatchObject({ step_index: 0, code: 'SCREEN_MISMATCH' });
    expect(report.first_error?.message).toMatch(
      /step 1 \(ui_tap\): expected com\.example\.notes showing 'Drafts list', 'Compose' \(at least 1\); found com\.example\.notes showing 'Drafts folder', 'Back'/,
    );
  });

  it('half of the expected texts (rounded up) suffice: one renamed label is not another screen', async () => {
    const flow = tapDrafts();
    flow.steps[0] = { ...flow.steps[0]!, expect: { package: APP, texts: ['Drafts folder', 'Renamed'] } };
    expect((await runFlow(flow, new ScreenClient(screen(BASE)), { source: 'f.json' })).passed).toBe(true);
  });
});

describe('repair', () => {
  const renamed = screen([
    row('Inbox', `${APP}:id/folder`, 300),
    row('Draft notes', `${APP}:id/folder`, 450),
    row('Archive', `${APP}:id/folder`, 600),
  ]);
  const tie = screen([
    row('Inbox', `${APP}:id/folder`, 300),
    row('Archive', `${APP}:id/folder`, 450),
    row('Old drafts', `${APP}:id/folder`, 600),
    row('New drafts', `${APP}:id/folder`, 750),
  ]);

  it('scores by the recorded facts: a renamed label is found, a tie is not decided', () => {
    const recorded = recordedDrafts();
    const renamedDecision = decideRepair(recorded, candidatesOnScreen(renamed, APP));
    expect(renamedDecision.kind).toBe('repair');
    if (renamedDecision.kind !== 'repair') return;
    expect(renamedDecision.best.candidate.label).toBe('Draft notes');
    expect(renamedDecision.best.score).toBeGreaterThanOrEqual(REPAIR_THRESHOLD);
    // The rows around it share its id, role and section, but not its label nor its place.
    expect(renamedDecision.ranked[1]!.score).toBeLessThan(REPAIR_THRESHOLD);
    const tieDecision = decideRepair(recorded, candidatesOnScreen(tie, APP));
    expect(tieDecision.kind).toBe('tie');
    // An id changed, its label kept: found by its label and its other recorded selector.
    const compose = (id: string) =>
      screen([row('Compose', `${APP}:id/${id}`, 300), row('Inbox', `${APP}:id/folder`, 450)]);
    const before = candidatesOnScreen(compose('compose'), APP).find((c) => c.label === 'Compose')!;
    expect(before.selectors[0]).toEqual({ id: 'compose' });
    const moved = decideRepair(asRecorded(before), candidatesOnScreen(compose('write'), APP));
    expect(moved.kind === 'repair' && moved.best.candidate.selectors[0]).toEqual({ id: 'write' });
    expect(moved.kind === 'repair' && moved.best.evidence.join()).toMatch(
      /the recorded selector \{"text":"Compose"\} names it alone/,
    );
  });

  it('without --repair the failure names the best candidate and how to repair; nothing more is pressed', async () => {
    const client = new ScreenClient(renamed);
    const report = await runFlow(tapDrafts(), client, { source: 'f.json' });
    expect(report.passed).toBe(false);
    expect(report.first_error).toMatchObject({ step_index: 0, code: 'UI_ELEMENT_NOT_FOUND' });
    expect(report.first_error?.message).toMatch(
      /Best candidate now: \{"text":"Draft notes"\} scores 0\.\d\d: .*Run the flow again with --repair/,
    );
    expect(client.calls.filter((c) => c.name === 'ui_tap')).toHaveLength(1);
  });

  it('with --repair the one candidate above the threshold is used and the repair reported', async () => {
    const client = new ScreenClient(renamed);
    const report = await runFlow(tapDrafts(), client, { source: 'f.json', repair: true });
    expect(report.passed).toBe(true);
    expect(report.repairs).toEqual([
      expect.objectContaining({
        step: 1,
        old_selector: { text: 'Drafts' },
        new_selector: { text: 'Draft notes' },
        threshold: REPAIR_THRESHOLD,
        evidence: expect.arrayContaining([expect.stringMatching(/a label sharing a word/)]),
      }),
    ]);
    expect(client.calls.filter((c) => c.name === 'ui_tap').map((c) => c.args.selector)).toEqual([
      { text: 'Drafts' },
      { text: 'Draft notes' },
    ]);
  });

  it('a tie is refused even with --repair, naming both candidates', async () => {
    const client = new ScreenClient(tie);
    const report = await runFlow(tapDrafts(), client, { source: 'f.json', repair: true });
    expect(report.passed).toBe(false);
    expect(report.repairs).toBeUndefined();
    expect(report.first_error?.message).toMatch(
      /Not repaired: 2 candidates clear the repair threshold 0\.50 and a repair would be a coin toss: \{"text":"Old drafts"\}.*; \{"text":"New drafts"\}/,
    );
    expect(client.calls.filter((c) => c.name === 'ui_tap')).toHaveLength(1);
  });
});
