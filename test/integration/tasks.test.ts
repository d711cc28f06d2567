/**
 * Tasks over real HTTP on loopback: the built server (`serve --http`, stopped by
 * pid), the real adb, one real Appium 3 for the file and the virtual device. A flow task passes and
 * its evidence downloads; a failing one names its failed step; DELETE mid-step leaves no Appium
 * session and no lock; two tasks on one device run one after the other in the order they came; a
 * device held by an MCP client's flow fails the task with EMULATOR_BUSY; curl starts one; a bad
 * flow is refused whole at submission (400, every problem by step, nothing started); a flow of
 * the opt-in toolsets' tools (the server serves wait and device) passes.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { bearerJson } from '../support/bearerJson.js';
import { REPO_ROOT } from '../support/appium.js';
import type { HttpHarness } from '../support/httpHarness.js';
import { startHttpStack, type HttpStack } from '../support/httpStack.js';
import { optInFlow } from '../support/optInFlow.js';
import { ensureBuilt } from '../support/rawServer.js';
import { sleepMs, type ReliabilityStack } from '../support/reliabilityStack.js';

const TOKEN = 'task-test-token-0123456789abcdef';
const MODERN = '2026-07-28';
const EXAMPLE = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'flows', 'example.json'), 'utf8')) as Record<
  string,
  unknown
>;

interface TaskView {
  readonly task_id: string;
  readonly state: string;
  readonly device: string;
  readonly progress: { readonly step: number; readonly of: number };
  readonly queue_position: number | null;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly report: Record<string, unknown> | null;
  readonly evidence: readonly { readonly artifact_id: string; readonly url: string }[];
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly trace: { readonly name: string; readonly url: string } | null;
}

interface Answer {
  readonly status: number;
  readonly body: {
    readonly ok: boolean;
    readonly data?: TaskView;
    readonly error?: { code: string; message: string } | null;
  };
}

describeWithAdb('tasks: POST /agent/task, GET and DELETE /task/{id}', () => {
  let http: HttpStack;
  let stack: ReliabilityStack;
  let server: HttpHarness;
  let base: string;

  beforeAll(async () => {
    ensureBuilt();
    http = await startHttpStack({
      tag: 'tasks',
      token: TOKEN,
      env: { ANDROID_MCP_ACTION_TIMEOUT: '20', ANDROID_MCP_CONNECT_TIMEOUT: '30', ANDROID_MCP_TOOLSETS: 'wait,device' },
    });
    ({ stack, server, base } = http);
  }, 180_000);

  afterAll(async () => {
    await http?.stop();
  }, 60_000);

  async function call(method: string, path: string, body?: unknown): Promise<Answer> {
    const answer = await bearerJson(base, TOKEN, method, path, body);
    return { status: answer.status, body: answer.json as Answer['body'] };
  }

  async function start(body: unknown): Promise<TaskView> {
    const answer = await call('POST', '/agent/task', body);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 400)).toBe(202);
    // The keys of every tool's envelope: the task is `data`.
    expect(answer.body).toMatchObject({ ok: true, error: null });
    return answer.body.data!;
  }

  /** Polls until the task is done (or `until` holds); the deadline only bounds the wait. */
  async function poll(
    id: string,
    until: (view: TaskView) => boolean = (view) => view.state !== 'queued' && view.state !== 'running',
    withinMs = 90_000,
  ): Promise<TaskView> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const view = (await call('GET', `/task/${id}`)).body.data!;
      if (until(view) || Date.now() > deadline) return view;
      await sleepMs(100);
    }
  }

  async function nothingLeft(): Promise<void> {
    expect(await stack.appium!.sessionIds()).toEqual([]);
    expect(readdirSync(stack.lockDir)).toEqual([]);
  }

  it('a flow task (docs/flows/example.json) passes in the background; its evidence downloads, byte for byte', async () => {
    stack.device.setScreen('settings_home' as never);
    const started = await start({ device: stack.serial, flow: EXAMPLE });
    expect(['queued', 'running']).toContain(started.state);
    const done = await poll(started.task_id);
    expect(done.error, JSON.stringify(done.error)).toBeNull();
    expect(done).toMatchObject({
      state: 'passed',
      progress: { step: 7, of: 7 },
      report: { passed: true, steps_run: 7, steps_total: 7 },
    });
    const tools = (done.report!.calls as { tool: string }[]).map((c) => c.tool);
    expect(tools.slice(0, 3)).toEqual(['ui_session_open', 'app_open', 'ui_get_tree']);
    expect(tools.slice(-2)).toEqual(['ui_get_tree', 'ui_session_close']);
    expect(done.evidence.length).toBeGreaterThanOrEqual(7);
    const link = done.evidence[0]!;
    const response = await fetch(`${base}${link.url}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(stack.artifactsDir, link.artifact_id))),
    ).toBe(true);
    // Its trace: named in the view, one line per call in its own folder, served as the viewer page with the same token.
    expect(done.trace).toEqual({
      name: expect.stringMatching(/^\d{8}-\d{6}-\d{3}-task-\d+-\d+$/),
      url: `/task/${done.task_id}/trace`,
    });
    const lines = readFileSync(join(stack.artifactsDir, 'traces', done.trace!.name, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.slice(1).map((line) => (JSON.parse(line) as { tool: string }).tool)).toEqual(tools);
    const page = await fetch(`${base}${done.trace!.url}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(`Trace ${done.trace!.name}`);
    expect(html).toContain(
      `data:image/png;base64,${readFileSync(join(stack.artifactsDir, link.artifact_id)).toString('base64').slice(0, 64)}`,
    );
    expect((await fetch(`${base}${done.trace!.url}`)).status).toBe(401);
    const noTask = await call('GET', '/task/00000000-0000-4000-8000-000000000000/trace');
    expect(noTask.status).toBe(404);
    expect(noTask.body.error?.code).toBe('NOT_FOUND');
    await nothingLeft();
  }, 150_000);

  it('a failing flow task is failed and names the failed step; the flow is closed', async () => {
    stack.device.setScreen('settings_home' as never);
    const flow = {
      package_name: 'com.android.settings',
      steps: [
        { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
        { tool: 'ui_tap', arguments: { selector: { text: 'No such row' } } },
        { tool: 'device_back' },
      ],
    };
    const done = await poll((await start({ device: stack.serial, flow })).task_id);
    expect(done).toMatchObject({
      state: 'failed',
      progress: { step: 2, of: 3 },
      error: { code: 'UI_ELEMENT_NOT_FOUND' },
    });
    expect(done.report).toMatchObject({
      passed: false,
      steps_run: 2,
      first_error: { tool: 'ui_tap', phase: 'step', step_index: 1, code: 'UI_ELEMENT_NOT_FOUND' },
    });
    // The failed step's own failure screenshot is among the links.
    expect(done.evidence.some((link) => /failure/.test(link.artifact_id))).toBe(true);
    await nothingLeft();
  }, 120_000);

  it('DELETE mid-step: the answer comes once the task has stopped, with no Appium session and no lock left', async () => {
    stack.device.setScreen('settings_home' as never);
    const clicks = stack.device.clicks().length;
    stack.device.injectFault({ kind: 'slow', target: 'uia2', match: '/click', delayMs: 3_000 });
    try {
      const flow = {
        package_name: 'com.android.settings',
        steps: [
          { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
          { tool: 'device_back' },
          { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
        ],
      };
      const since = stack.device.log().length;
      const { task_id } = await start({ device: stack.serial, flow });
      // The first tap is in flight (its click held by the fault).
      const deadline = Date.now() + 60_000;
      while (
        !stack.device
          .log()
          .slice(since)
          .some((e) => e.kind === 'uia2' && /\/click/.test(e.detail)) &&
        Date.now() < deadline
      )
        await sleepMs(20);
      const cancelled = await call('DELETE', `/task/${task_id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ state: 'cancelled', progress: { step: 1, of: 3 } });
      await nothingLeft();
      // The step in flight finished; none after it ran.
      expect(stack.device.clicks().length).toBe(clicks + 1);
      const tools = (cancelled.body.data!.report!.calls as { tool: string }[]).map((c) => c.tool);
      expect(tools).not.toContain('device_back');
      expect(tools.at(-1)).toBe('ui_session_close');
    } finally {
      stack.device.clearFaults();
    }
  }, 120_000);

  it('two tasks on one device run one after the other, in the order they came (the second queued meanwhile)', async () => {
    stack.device.setScreen('settings_home' as never);
    const flow = {
      package_name: 'com.android.settings',
      steps: [{ tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } }, { tool: 'device_back' }],
    };
    const first = await start({ device: stack.serial, flow });
    const second = await start({ device: stack.serial, flow });
    expect(second).toMatchObject({ state: 'queued', queue_position: 1 });
    const [a, b] = [await poll(first.task_id), await poll(second.task_id)];
    expect([a.state, b.state]).toEqual(['passed', 'passed']);
    expect(Date.parse(b.started_at!)).toBeGreaterThanOrEqual(Date.parse(a.finished_at!));
    await nothingLeft();
  }, 150_000);

  it('a device held by an MCP client’s flow fails the task at once with EMULATOR_BUSY (no wait)', async () => {
    const mcp = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': name,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args, _meta: meta },
        }),
      });
      const message = (await response.json()) as { result: { content: { text: string }[] } };
      return JSON.parse(message.result.content[0]!.text) as Record<string, unknown>;
    };
    const opened = await mcp('ui_session_open', {});
    const sessionId = (opened.data as { session_id: string }).session_id;
    try {
      const done = await poll(
        (
          await start({
            device: stack.serial,
            flow: { package_name: 'com.android.settings', steps: [{ tool: 'device_back' }] },
          })
        ).task_id,
      );
      expect(done).toMatchObject({ state: 'failed', progress: { step: 0 }, error: { code: 'EMULATOR_BUSY' } });
      expect((done.report!.calls as { tool: string }[]).map((c) => c.tool)).toEqual(['ui_session_open']);
    } finally {
      expect((await mcp('ui_session_close', { session_id: sessionId })).ok).toBe(true);
    }
    await nothingLeft();
  }, 90_000);

  it('a bad flow is refused at submission, 400 with every problem by its step, before anything starts', async () => {
    const appiumLog = (): string => readFileSync(stack.appium!.logFile, 'utf8');
    const artifacts = (): string[] => (existsSync(stack.artifactsDir) ? readdirSync(stack.artifactsDir) : []);
    const [logBefore, artifactsBefore] = [appiumLog().length, artifacts()];
    const flow = {
      package_name: 'com.android.settings',
      steps: [
        { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
        { tool: 'ui_scroll', arguments: { direction: 'Down' } },
        { tool: 'app_stop', arguments: { package_name: 'com.android.settings' } },
        { tool: 'app_open' },
        { tool: 'ui_tap', arguments: { selector: { txt: 'Apps' } } },
      ],
    };
    const refused = await call('POST', '/agent/task', { device: stack.serial, flow });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message:
          'Invalid task: flow is not a valid flow:\n' +
          "  - step 2 (ui_scroll): direction 'Down' is not one of up, down, left, right\n" +
          "  - step 3 (app_stop): app_stop belongs to the toolset 'apps', which is off: start the server with --toolsets apps (or ANDROID_MCP_TOOLSETS=apps)\n" +
          '  - step 4 (app_open): package_name is missing\n' +
          '  - step 5 (ui_tap): Invalid selector: selector has the unknown key \'txt\'. A selector is an object with exactly one of id, resource_id, text, content_desc, text_contains, input_hint, text_starts_with, content_desc_contains, class_name, resource_id_matches, plus an optional "within" that is itself exactly one of those keys (no nested within), e.g. {"text": "Save"} or {"text": "Save", "within": {"content_desc": "Work profile"}}; by hand it may add checked, selected, enabled, focused (true or false) and "instance" (0-based). Send back a selector that ui_get_tree offered.',
      },
    });
    // Nothing started: no Appium session asked for, no evidence, no lock.
    expect(appiumLog().slice(logBefore)).not.toMatch(/POST \/session/);
    expect(artifacts()).toEqual(artifactsBefore);
    await nothingLeft();
  }, 60_000);

  it('a flow of ui_wait, app_open and device_key passes on a server that serves the wait and device toolsets', async () => {
    stack.device.setScreen('settings_home' as never);
    const flow = optInFlow({ appStop: false });
    const done = await poll((await start({ device: stack.serial, flow })).task_id);
    expect(done.error, JSON.stringify(done.error)).toBeNull();
    expect(done).toMatchObject({
      state: 'passed',
      progress: { step: 7, of: 7 },
      report: { passed: true, steps_run: 7 },
    });
    const steps = (done.report!.calls as { tool: string; phase: string; arguments: Record<string, unknown> }[]).filter(
      (c) => c.phase === 'step',
    );
    expect(steps.map((c) => c.tool)).toEqual([
      'ui_wait',
      'ui_tap',
      'ui_wait',
      'device_key',
      'ui_wait',
      'app_open',
      'ui_wait',
    ]);
    for (const c of steps) expect(c.arguments.session_id).toBe('<session_id>');
    await nothingLeft();
  }, 120_000);

  it('curl: POST /agent/task as docs/guide/usage.md shows it, then GET /task/{id}; a goal without a model is 503 MODEL_UNAVAILABLE', async () => {
    stack.device.setScreen('settings_home' as never);
    const run = promisify(execFile);
    // docs/guide/usage.md's line: the flow file's text pasted into the body as it is.
    const body = `{"device": "${stack.serial}", "flow": ${readFileSync(join(REPO_ROOT, 'docs', 'flows', 'example.json'), 'utf8')}}`;
    const posted = await run(
      'curl',
      [
        '-sS',
        '-w',
        '\\n%{http_code}',
        '-H',
        `Authorization: Bearer ${TOKEN}`,
        '-H',
        'Content-Type: application/json',
        '-d',
        body,
        `${base}/agent/task`,
      ],
      { timeout: 30_000 },
    );
    const [json, code] = posted.stdout.split('\n');
    expect(code).toBe('202');
    const id = (JSON.parse(json!) as { data: TaskView }).data.task_id;
    await poll(id);
    const got = await run('curl', ['-sS', '-H', `Authorization: Bearer ${TOKEN}`, `${base}/task/${id}`], {
      timeout: 30_000,
    });
    expect((JSON.parse(got.stdout) as { data: TaskView }).data).toMatchObject({
      task_id: id,
      state: 'passed',
      progress: { step: 7, of: 7 },
    });
    const cancelDone = await run(
      'curl',
      ['-sS', '-H', `Authorization: Bearer ${TOKEN}`, '-X', 'DELETE', `${base}/task/${id}`],
      { timeout: 30_000 },
    );
    // A finished task is answered as it is.
    expect((JSON.parse(cancelDone.stdout) as { data: TaskView }).data.state).toBe('passed');
    const goal = await run(
      'curl',
      [
        '-sS',
        '-w',
        '\\n%{http_code}',
        '-H',
        `Authorization: Bearer ${TOKEN}`,
        '-H',
        'Content-Type: application/json',
        '-d',
        JSON.stringify({ device: stack.serial, goal: 'Open Apps' }),
        `${base}/agent/task`,
      ],
      { timeout: 30_000 },
    );
    const [goalJson, goalCode] = goal.stdout.split('\n');
    expect(goalCode).toBe('503');
    expect((JSON.parse(goalJson!) as Answer['body']).error?.code).toBe('MODEL_UNAVAILABLE');
    // No token: refused before routing, like every route.
    expect((await fetch(`${base}/task/${id}`)).status).toBe(401);
    await nothingLeft();
  }, 150_000);
});
