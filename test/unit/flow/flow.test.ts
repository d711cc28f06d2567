import { describe, expect, it } from 'vitest';
import type { FlowFile } from '../../../src/flow/flowFile.js';
import { runFlow, summarizeReport, type FlowClient, type FlowEnvelope } from '../../../src/flow/runFlow.js';
import { envelopeOf } from '../../../src/flow/stdioFlowClient.js';
import { serverLogSection } from '../../../src/flow/cli.js';

const SESSION = 'sess_0123456789abcdefghijklmnop';

function envelope(tool: string, data: Record<string, unknown>, evidence?: string): FlowEnvelope {
  return {
    ok: true,
    operation_id: 'k3v9x0q7m2ta',
    tool,
    data,
    evidence: evidence ? { artifact_id: evidence } : null,
    error: null,
  };
}
function failure(tool: string, code: string, message: string): FlowEnvelope {
  return { ok: false, operation_id: 'x', tool, data: {}, evidence: null, error: { code, message } };
}

/** Answers like the server would, records every call, fails where told. */
class ScriptedClient implements FlowClient {
  readonly calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  constructor(
    private readonly failOn: (name: string, callIndex: number) => FlowEnvelope | 'throw' | null = () => null,
  ) {}
  callTool(name: string, args: Record<string, unknown>): Promise<{ envelope: FlowEnvelope; isError: boolean }> {
    this.calls.push({ name, args });
    const forced = this.failOn(name, this.calls.length - 1);
    if (forced === 'throw') return Promise.reject(new Error('server went away'));
    if (forced) return Promise.resolve({ envelope: forced, isError: true });
    const answers: Record<string, FlowEnvelope> = {
      app_open: envelope(
        'app_open',
        { opened_package: 'com.example.notes', foreground_package: 'com.example.notes' },
        'a-app-open.png',
      ),
      ui_get_tree: envelope('ui_get_tree', { foreground_package: 'com.example.notes', actions: [{}, {}] }),
      ui_session_open: envelope('ui_session_open', { session_id: SESSION, idle_timeout_seconds: 60 }),
      ui_session_close: envelope('ui_session_close', { closed: true }),
      ui_tap: envelope('ui_tap', { element_label: 'New note' }, `t${this.calls.length}-ui-tap.png`),
      ui_type_text: envelope('ui_type_text', { characters_sent: 4 }, `t${this.calls.length}-ui-type.png`),
      device_back: envelope('device_back', { back_to_package: 'com.example.notes' }, 'b-device-back.png'),
    };
    return Promise.resolve({
      envelope: answers[name] ?? failure(name, 'INTERNAL_ERROR', 'unscripted'),
      isError: false,
    });
  }
}

const flow: FlowFile = {
  package_name: 'com.example.notes',
  steps: [
    { tool: 'ui_tap', arguments: { selector: { text: 'New note' } } },
    { tool: 'ui_type_text', arguments: { selector: { input_hint: 'Title' }, text: 'Milk' } },
    { tool: 'device_back', arguments: {} },
  ],
};

let tick = 0;
const clock = { now: () => new Date('2026-11-30T12:00:00Z'), monotonicMs: () => (tick += 10) };

describe('runFlow', () => {
  it('runs setup, the steps with the session id injected, then closes the session and reads the tree', async () => {
    const client = new ScriptedClient();
    // The flow CLI names each file in the server's evidence directory for a person; answers name only the id.
    const evidencePath = (id: string) => `out/evidence/${id}`;
    const report = await runFlow(flow, client, { source: 'notes.json', ...clock, evidencePath });
    expect(client.calls.map((c) => c.name)).toEqual([
      'app_open',
      'ui_get_tree',
      'ui_session_open',
      'ui_tap',
      'ui_type_text',
      'device_back',
      'ui_session_close',
      'ui_get_tree',
    ]);
    expect(client.calls[0]?.args).toEqual({ package_name: 'com.example.notes' });
    for (const step of client.calls.slice(3, 7)) expect(step.args.session_id).toBe(SESSION);
    expect(client.calls[4]?.args).toEqual({ selector: { input_hint: 'Title' }, text: 'Milk', session_id: SESSION });
    expect(report.passed).toBe(true);
    expect(report.first_error).toBeNull();
    expect(report.steps_run).toBe(3);
    expect(report.evidence).toEqual([
      'out/evidence/a-app-open.png',
      'out/evidence/t4-ui-tap.png',
      'out/evidence/t5-ui-type.png',
      'out/evidence/b-device-back.png',
    ]);
    // The envelopes are kept as the server sent them.
    expect(report.calls[0]?.envelope.evidence).toEqual({ artifact_id: 'a-app-open.png' });
    // Without a directory to name (a task), the report lists the ids.
    const ids = await runFlow(flow, new ScriptedClient(), { source: 'notes.json', ...clock });
    expect(ids.evidence).toEqual(['a-app-open.png', 't4-ui-tap.png', 't5-ui-type.png', 'b-device-back.png']);
    // Recorded arguments show where the id went, not the id (the envelopes keep it as the server sent it).
    expect(
      report.calls.filter((c) => c.phase !== 'setup' && c.tool !== 'ui_get_tree').map((c) => c.arguments.session_id),
    ).toEqual(['<session_id>', '<session_id>', '<session_id>', '<session_id>']);
    expect(report.calls.filter((c) => c.phase === 'step').map((c) => c.step_index)).toEqual([0, 1, 2]);
  });

  it('stops at the first failing step, still closes the session and reads the tree, and names the error', async () => {
    const client = new ScriptedClient((name) =>
      name === 'ui_type_text'
        ? failure(name, 'UI_ELEMENT_NOT_FOUND', "No element matches. The screen offers: 'Save' (button).")
        : null,
    );
    // The flow CLI names each file in the server's evidence directory for a person; answers name only the id.
    const evidencePath = (id: string) => `out/evidence/${id}`;
    const report = await runFlow(flow, client, { source: 'notes.json', ...clock, evidencePath });
    expect(client.calls.map((c) => c.name)).toEqual([
      'app_open',
      'ui_get_tree',
      'ui_session_open',
      'ui_tap',
      'ui_type_text',
      'ui_session_close',
      'ui_get_tree',
    ]);
    expect(report.passed).toBe(false);
    expect(report.steps_run).toBe(2);
    expect(report.first_error).toEqual({
      tool: 'ui_type_text',
      phase: 'step',
      step_index: 1,
      code: 'UI_ELEMENT_NOT_FOUND',
      message: "No element matches. The screen offers: 'Save' (button).",
    });
  });

  it('when the app does not open: no session is opened or closed, the tree is still read', async () => {
    const client = new ScriptedClient((name) =>
      name === 'app_open' ? failure(name, 'APP_NOT_FOUND', 'not installed') : null,
    );
    // The flow CLI names each file in the server's evidence directory for a person; answers name only the id.
    const evidencePath = (id: string) => `out/evidence/${id}`;
    const report = await runFlow(flow, client, { source: 'notes.json', ...clock, evidencePath });
    expect(client.calls.map((c) => c.name)).toEqual(['app_open', 'ui_get_tree']);
    expect(report.passed).toBe(false);
    expect(report.first_error?.code).toBe('APP_NOT_FOUND');
    expect(report.steps_run).toBe(0);
  });

  it('when the session cannot open, nothing is closed', async () => {
    const client = new ScriptedClient((name) =>
      name === 'ui_session_open' ? failure(name, 'APPIUM_UNAVAILABLE', 'no Appium') : null,
    );
    const report = await runFlow(flow, client, { source: 'f', ...clock });
    expect(client.calls.map((c) => c.name)).toEqual(['app_open', 'ui_get_tree', 'ui_session_open', 'ui_get_tree']);
    expect(report.first_error?.phase).toBe('setup');
  });

  it('a failing close makes the run fail even when every step passed', async () => {
    const client = new ScriptedClient((name) =>
      name === 'ui_session_close' ? failure(name, 'INVALID_UI_SESSION', 'expired') : null,
    );
    const report = await runFlow(flow, client, { source: 'f', ...clock });
    expect(report.steps_run).toBe(3);
    expect(report.passed).toBe(false);
    expect(report.first_error).toMatchObject({ tool: 'ui_session_close', phase: 'teardown' });
  });

  it('a client that throws becomes a failed call, and teardown still runs', async () => {
    const client = new ScriptedClient((name, index) => (name === 'ui_tap' && index === 3 ? 'throw' : null));
    const report = await runFlow(flow, client, { source: 'f', ...clock });
    expect(report.first_error).toMatchObject({ tool: 'ui_tap', code: 'CLIENT_ERROR', message: 'server went away' });
    expect(client.calls.map((c) => c.name).slice(-2)).toEqual(['ui_session_close', 'ui_get_tree']);
  });

  it('summarises each call on one line with its evidence, and the first error', async () => {
    const client = new ScriptedClient((name) =>
      name === 'device_back' ? failure(name, 'OPERATION_TIMEOUT', 'too slow') : null,
    );
    const evidencePath = (id: string) => `artifacts/${id}`;
    const lines = summarizeReport(await runFlow(flow, client, { source: 'notes.json', ...clock, evidencePath }));
    expect(lines[0]).toMatch(/^flow notes\.json \(com\.example\.notes\): FAILED, 3\/3 steps, 8 calls, /);
    expect(lines).toContain('  ok   step 1 ui_tap {"text":"New note"} — tapped \'New note\'  [t4-ui-tap.png]');
    expect(lines).toContain('  FAIL step 3 device_back — OPERATION_TIMEOUT: too slow');
    expect(lines.at(-1)).toBe('first error: device_back → OPERATION_TIMEOUT: too slow');
    expect(lines).toContain(
      'evidence (3 PNG): artifacts/a-app-open.png, artifacts/t4-ui-tap.png, artifacts/t5-ui-type.png',
    );
  });
});

describe('envelopeOf', () => {
  const env = envelope('ui_tap', { element_label: 'A' });
  it('prefers structuredContent, falls back to the JSON text block', () => {
    expect(envelopeOf({ structuredContent: env, content: [] })).toEqual(env);
    expect(
      envelopeOf({
        content: [
          { type: 'image', data: '' },
          { type: 'text', text: JSON.stringify(env) },
        ],
      }),
    ).toEqual(env);
  });
  it('reports a result without an envelope as a protocol error', () => {
    expect(envelopeOf({ content: [{ type: 'text', text: 'hello' }] })).toMatchObject({
      ok: false,
      error: { code: 'PROTOCOL_ERROR' },
    });
  });
});

describe('serverLogSection', () => {
  it('prints no heading when the server wrote nothing but blank lines', () => {
    expect(serverLogSection([], false)).toEqual([]);
    expect(serverLogSection(['', '   ', '\t'], true)).toEqual([]);
  });

  it('prints the last 15 lines under the heading (all of them when verbose), blank ones left out', () => {
    const tail = Array.from({ length: 20 }, (_, i) => `{"msg":"line ${i}"}`);
    expect(serverLogSection(['', ...tail.slice(0, 2)], false)).toEqual([
      'server log (last lines):',
      '  {"msg":"line 0"}',
      '  {"msg":"line 1"}',
    ]);
    const shown = serverLogSection(tail, false);
    expect(shown).toHaveLength(16);
    expect(shown[1]).toBe('  {"msg":"line 5"}');
    expect(serverLogSection(tail, true)).toHaveLength(21);
  });
});
