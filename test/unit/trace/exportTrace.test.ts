import { stepToolNames } from '../../../src/flow/flowSteps.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { flowOf, replayOf, TraceExportError, wdioOf, WDIO_STEP_TOOLS } from '../../../src/trace/exportTrace.js';
import { readTrace } from '../../../src/trace/readTrace.js';
import { viewerHtml } from '../../../src/trace/viewer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let line = 1;
function call(
  tool: string,
  args: Record<string, unknown>,
  data: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  line += 1;
  const ok = extra.ok !== false;
  return {
    line,
    type: 'call',
    tool,
    arguments: args,
    started_at: '2026-12-07T00:00:00.000Z',
    ended_at: '2026-12-07T00:00:00.100Z',
    duration_ms: 100,
    device: 'emulator-5554',
    ok,
    error_code: ok ? null : 'UI_ELEMENT_NOT_FOUND',
    evidence: [],
    read_line: null,
    envelope: {
      ok,
      operation_id: 'op',
      tool,
      data,
      evidence: null,
      error: ok ? null : { code: 'UI_ELEMENT_NOT_FOUND', message: 'not found' },
    },
    ...extra,
  };
}

function traceOf(lines: Record<string, unknown>[], tail = ''): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'trace-export-'));
  dirs.push(root);
  const dir = path.join(root, 'traces', '20261207-000000-000-stdio-1-1');
  mkdirSync(dir, { recursive: true });
  const start = { line: 1, type: 'start', at: '2026-12-07T00:00:00.000Z', kind: 'stdio' };
  writeFileSync(
    path.join(dir, 'trace.jsonl'),
    `${[start, ...lines].map((l) => JSON.stringify(l)).join('\n')}\n${tail}`,
  );
  return dir;
}

const SUMMARY = {
  foreground_package: 'com.example.app',
  screen: { width: 1080, height: 2400 },
  actions: [
    { ref: 'e1', text: 'Sign in' },
    { ref: 'e2', id: 'email', input_hint: 'Email', role: 'input' },
    { ref: 'e3', label: 'Clock', ambiguous: true },
  ],
  layout_findings: [{ issue: 'touch_target_too_small', actions: [0], minimum_px: 126 }],
};

const SIGN_IN = {
  selectors: [{ text: 'Sign in' }],
  label: 'Sign in',
  role: 'button',
  bounds: [0, 100, 1080, 200],
  package: 'com.example.app',
  source: 'ref',
};
const EMAIL = {
  selectors: [{ id: 'email' }, { input_hint: 'Email' }],
  label: 'Email',
  role: 'input',
  resource_id: 'com.example.app:id/email',
  bounds: [0, 300, 1080, 200],
  package: 'com.example.app',
  source: 'ref',
};
const PASSWORD = {
  selectors: [{ input_hint: 'Password' }],
  label: 'Password',
  role: 'input',
  bounds: [0, 500, 1080, 200],
  package: 'com.example.app',
  password: true,
  source: 'ref',
};

describe('trace export', () => {
  it('keeps the successful actions in order, turns refs into the recorded selectors, drops reads and failures with a note, and types inputs', () => {
    line = 1;
    const lines = [
      call('app_open', { package_name: 'com.example.app' }, { foreground_package: 'com.example.app' }),
      call(
        'ui_get_tree',
        {},
        { read: 'r1', ...SUMMARY },
        {
          bounds: { e1: [0, 100, 1080, 200], e2: [0, 300, 1080, 200], e3: [0, 500, 40, 40] },
        },
      ),
      call('ui_tap', { selector: { text: 'Nope' }, session_id: 'session-1' }, {}, { ok: false, read_line: 3 }),
      call('ui_wait', { selector: { ref: 'e1' }, session_id: 'session-1' }, {}, { read_line: 3, element: SIGN_IN }),
      call(
        'ui_tap',
        { selector: { ref: 'e1' }, session_id: 'session-1' },
        {
          foreground_package: 'com.example.app',
          // A diff against the read of line 3: the exporter applies it to know the whole screen after the tap.
          after: { read: 'r2', diff_of: 'r1', removed: ['e3'], texts_added: ['Welcome back'] },
        },
        { read_line: 3, element: SIGN_IN },
      ),
      call(
        'ui_type_text',
        { selector: { ref: 'e2' }, text: '[typed text]', typed_characters: 7, session_id: 'session-1' },
        {},
        { read_line: 3, element: EMAIL },
      ),
      call(
        'ui_type_text',
        { selector: { ref: 'e9' }, text: '[typed text]', typed_characters: 9, session_id: 'session-1' },
        {},
        { read_line: 3, element: PASSWORD },
      ),
      call('screen_capture', {}),
    ];
    // A line cut by a crash is skipped.
    const dir = traceOf(lines, '{"line": 99, "type": "ca');
    const trace = readTrace(dir);
    expect(trace.skipped).toBe(1);
    const flow = flowOf(trace);
    expect(flow.package_name).toBe('com.example.app');
    // ui_wait is a flow step (toolset wait): the wait the screen needed is kept as a step.
    // e9 came from no read the trace holds (a diff, a subtree): its line's element names it all the same.
    expect(flow.steps.map((step) => [step.tool, step.arguments])).toEqual([
      ['ui_wait', { selector: { text: 'Sign in' } }],
      ['ui_tap', { selector: { text: 'Sign in' } }],
      ['ui_type_text', { selector: { id: 'email' }, text: '${email}' }],
      ['ui_type_text', { selector: { input_hint: 'Password' }, text: '${password}' }],
    ]);
    expect(flow.inputs).toEqual({ email: {}, password: { secret: true } });
    expect(flow.steps[1]?.expect).toEqual({ package: 'com.example.app', texts: ['Welcome back', 'Sign in'] });
    expect(flow.steps[1]?.element).toMatchObject({ label: 'Sign in', bounds: [0, 100, 1080, 200] });
    expect(replayOf(trace).warnings).toEqual([
      expect.stringMatching(/^line 4: ui_tap failed \(UI_ELEMENT_NOT_FOUND\) and is left out/),
      expect.stringMatching(
        /the flow takes 2 inputs .*: email, password \(secret\); .*ANDROID_MCP_INPUT_EMAIL, ANDROID_MCP_INPUT_PASSWORD/,
      ),
    ]);
    // For a replay with core tools only, the wait becomes a note on the step it preceded.
    const coreOnly = replayOf(trace, new Set(stepToolNames(['core'])));
    expect(coreOnly.steps.map((step) => step.tool)).toEqual(['ui_tap', 'ui_type_text', 'ui_type_text']);
    expect(flowOf(trace, coreOnly).steps[0]?.note).toMatch(/the model waited here first \(ui_wait, line 5\)/);

    const wdio = wdioOf(trace, replayOf(trace, WDIO_STEP_TOOLS));
    // The harness's own locators, the id expanded with the app in front then.
    expect(wdio).toContain('"id","com.example.app:id/email"');
    expect(wdio).toContain('await driver.elementSendKeys(element, input("password"));');
    expect(wdio).toContain(
      'const INPUTS = {"email":"ANDROID_MCP_INPUT_EMAIL","password":"ANDROID_MCP_INPUT_PASSWORD"};',
    );
    expect(wdio).toContain('await expectScreen(driver, "com.example.app", ["Welcome back","Sign in"]);');
    expect([...wdio.matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1])).toEqual([
      'node:assert/strict',
      'webdriverio',
    ]);

    const html = viewerHtml(trace);
    expect(html).not.toMatch(/<\/script>[^]*<\/script>[^]*<\/script>/);
    expect(html).toContain('"findings":[{"box":[0,100,1080,200],"label":"touch_target_too_small"}]');
  });

  it('a session that began without app_open starts with the app in front then; settings_open_apps is a step', () => {
    line = 1;
    const trace = readTrace(
      traceOf([
        call('ui_get_tree', {}, { read: 'r1', ...SUMMARY, foreground_package: 'com.android.settings' }),
        call('settings_open_apps', {}, { foreground_package: 'com.android.settings' }),
        call(
          'ui_tap',
          { selector: { text: 'Sign in' } },
          { foreground_package: 'com.example.app' },
          { element: SIGN_IN },
        ),
      ]),
    );
    const flow = flowOf(trace);
    expect(flow.package_name).toBe('com.android.settings');
    expect(flow.steps.map((step) => step.tool)).toEqual(['settings_open_apps', 'ui_tap']);
  });

  it('stops on an element no selector named alone, naming the call, instead of writing a replay that acts on something else', () => {
    line = 1;
    const dir = traceOf([
      call('app_open', { package_name: 'com.example.app' }),
      call('ui_get_tree', {}, SUMMARY),
      call(
        'ui_tap',
        { selector: { ref: 'e3' } },
        {},
        { read_line: 3, element: { selectors: [], label: 'Clock', bounds: [0, 500, 40, 40] } },
      ),
      call('ui_tap', { selector: { ref: 'e1' } }, {}, { read_line: 3 }),
    ]);
    expect(() => replayOf(readTrace(dir))).toThrow(TraceExportError);
    expect(() => replayOf(readTrace(dir))).toThrow(
      /line 4: ui_tap acted on ref e3 \('Clock'\), an element no selector named alone when it ran[^]*line 5: ui_tap acted on ref e1, and its line records no element/,
    );
  });

  it('a trace that says no app, or a folder that is no trace, is refused with what to do', () => {
    line = 1;
    expect(() => replayOf(readTrace(traceOf([call('ui_tap', { selector: { text: 'x' } }, {})])))).toThrow(
      /it says no app/,
    );
    expect(() => replayOf(readTrace(traceOf([call('ui_get_tree', {}, SUMMARY)])))).toThrow(/no acting call succeeded/);
    expect(() => readTrace(os.tmpdir())).toThrow(/is not a trace folder: it has no trace\.jsonl/);
  });
});
