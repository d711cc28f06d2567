/**
 * Tasks over the real HTTP server on loopback, the fakes behind it: a flow task runs
 * in-process inside a flow on its device and leaves no session; a flow is refused with the flow
 * runner's own messages; a goal without an agent loop is MODEL_UNAVAILABLE; with one, the loop
 * sees only in-flow tools without session_id and cannot leave its flow; unknown ids are 404.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GoalRunRequest, GoalRunner } from '../../../src/application/tasks/GoalRunner.js';
import type { TaskView } from '../../../src/application/tasks/Task.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { FlowFileError, validateFlow } from '../../../src/flow/flowFile.js';
import { HarnessHttpServer } from '../../../src/transports/http/HttpServer.js';
import { restMirrorFor } from '../../../src/rest/restMirror.js';
import { buildHarness, type TestHarness } from '../../support/fakes/harness.js';
import { bearerJson } from '../../support/bearerJson.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { launcherDump } from '../../support/fakes/screens.js';

const TOKEN = 'unit-task-token-0123456789';
const FLOW = {
  package_name: 'com.example.app',
  steps: [{ tool: 'ui_tap', arguments: { selector: { text: 'Hello' } } }, { tool: 'device_back' }],
};

interface Answer {
  readonly status: number;
  readonly body: { ok: boolean; data?: TaskView; error?: { code: string; message: string } | null };
  readonly headers: Headers;
}

const servers: HarnessHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(h: TestHarness): Promise<(method: string, path: string, body?: unknown) => Promise<Answer>> {
  const server = new HarnessHttpServer({
    host: '127.0.0.1',
    port: 0,
    policy: { token: TOKEN, allowedHostnames: [], allowedOrigins: [] },
    routes: [restMirrorFor(h.container.restMirror)],
    logger: new RecordingLogger(),
  });
  servers.push(server);
  const base = `http://127.0.0.1:${await server.listen()}`;
  return async (method, path, body) => {
    const answer = await bearerJson(base, TOKEN, method, path, body);
    return { status: answer.status, body: answer.json as Answer['body'], headers: answer.headers };
  };
}

/** An app whose screen says Hello, on the fakes (launched by adb, read through the flow's driver). */
function appOnFakes(runner?: GoalRunner): TestHarness {
  const h = buildHarness({}, runner ? { goalRunner: runner } : {});
  h.automation.source = launcherDump('com.example.app');
  h.device.dump = launcherDump('com.example.app');
  h.automation.elements.set(buildLocator(parseSelector({ text: 'Hello' })).value, 'Hello');
  return h;
}

/** Polls GET /task/{id} (moving the fake clock) until the task is done. */
async function settled(h: TestHarness, call: Awaited<ReturnType<typeof serve>>, id: string): Promise<TaskView> {
  for (let i = 0; i < 200; i += 1) {
    const view = (await call('GET', `/task/${id}`)).body.data!;
    if (view.state !== 'queued' && view.state !== 'running') return view;
    await h.clock.advance(100);
  }
  throw new Error(`task ${id} did not finish`);
}

describe('POST /agent/task, GET /task/{id}', () => {
  it('a flow task answers 202 at once, runs the steps inside a flow on its device, passes, and leaves no session', async () => {
    const h = appOnFakes();
    const call = await serve(h);
    const started = await call('POST', '/agent/task', { device: 'emulator-5554', flow: FLOW });
    expect(started.status).toBe(202);
    const id = started.body.data!.task_id;
    // The keys of every tool's envelope: ok, data (the task), error.
    expect(started.body).toMatchObject({ ok: true, error: null });
    expect(started.headers.get('location')).toBe(`/task/${id}`);
    expect(started.body.data).toMatchObject({ kind: 'flow', device: 'emulator-5554', progress: { of: 2 } });
    const done = await settled(h, call, id);
    expect(done.error, JSON.stringify(done.report)).toBeNull();
    expect(done).toMatchObject({ state: 'passed', progress: { step: 2, of: 2 } });
    const report = done.report as {
      calls: { tool: string; arguments: Record<string, unknown>; phase: string }[];
      passed: boolean;
      steps_run: number;
    };
    expect(report).toMatchObject({ passed: true, steps_run: 2, steps_total: 2, package_name: 'com.example.app' });
    // Opened on the device first, every later call inside it, closed last.
    expect(report.calls.map((c) => c.tool)).toEqual([
      'ui_session_open',
      'app_open',
      'ui_get_tree',
      'ui_tap',
      'device_back',
      'ui_get_tree',
      'ui_session_close',
    ]);
    expect(report.calls[0]!.arguments).toEqual({ device: 'emulator-5554' });
    for (const c of report.calls.slice(1)) expect(c.arguments.session_id, c.tool).toBe('<session_id>');
    // One driver session, the flow's, and it is closed.
    expect(h.automation.sessions.length).toBe(1);
    expect(h.automation.open.size).toBe(0);
    expect(h.automation.log.filter((line) => line.endsWith(':click')).length).toBe(1);
    // Evidence links point at the artifact route, one per call that left evidence.
    expect(done.evidence.length).toBeGreaterThan(0);
    for (const link of done.evidence) expect(link.url).toBe(`/artifacts/${link.artifact_id}`);
  });

  it('a failing step fails the task with that step’s error; the flow is closed all the same', async () => {
    const h = appOnFakes();
    const call = await serve(h);
    const flow = {
      ...FLOW,
      steps: [{ tool: 'ui_tap', arguments: { selector: { text: 'Absent' } } }, { tool: 'device_back' }],
    };
    const id = (await call('POST', '/agent/task', { device: 'emulator-5554', flow })).body.data!.task_id;
    const done = await settled(h, call, id);
    expect(done).toMatchObject({
      state: 'failed',
      progress: { step: 1, of: 2 },
      error: { code: 'UI_ELEMENT_NOT_FOUND' },
    });
    expect(done.report).toMatchObject({
      passed: false,
      steps_run: 1,
      first_error: { tool: 'ui_tap', phase: 'step', step_index: 0 },
    });
    expect(h.automation.open.size).toBe(0);
  });

  it('refuses a flow with the flow runner’s own messages, and every other malformed body, before anything runs', async () => {
    const h = appOnFakes();
    const call = await serve(h);
    const bad = { package_name: '', steps: [{ tool: 'ui_tap', arguments: { session_id: 'x' } }, { tool: 'app_open' }] };
    let expected = '';
    try {
      await validateFlow(bad, 'flow', h.container.tasks.flowCheck);
    } catch (error) {
      expected = (error as FlowFileError).message;
    }
    expect(expected).toBe(
      'flow is not a valid flow:\n' +
        "  - package_name: Invalid package name ''. A package name is dot-separated segments of letters, digits and underscores, each starting with a letter, at most 255 characters (e.g. com.android.settings; no activity, path, space or flag). app_list_installed lists the installed packages.\n" +
        '  - step 1 (ui_tap): session_id must not be given: the runner opens the UI session and puts its id in every step\n' +
        '  - step 1 (ui_tap): selector is missing\n' +
        '  - step 2 (app_open): package_name is missing',
    );
    const refused = await call('POST', '/agent/task', { device: 'emulator-5554', flow: bad });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', message: `Invalid task: ${expected}` },
    });
    // A tool of a toolset this server does not serve: refused at submission, saying how to turn it on.
    const waits = await call('POST', '/agent/task', {
      device: 'emulator-5554',
      flow: { ...FLOW, steps: [{ tool: 'ui_wait', arguments: { selector: { text: 'Hello' }, until: 'visible' } }] },
    });
    expect(waits.status).toBe(400);
    expect(waits.body.error?.message).toBe(
      "Invalid task: flow is not a valid flow:\n  - step 1 (ui_wait): ui_wait belongs to the toolset 'wait', which is off: start the server with --toolsets wait (or ANDROID_MCP_TOOLSETS=wait)",
    );
    expect(h.automation.sessions.length).toBe(0);
    const cases: [unknown, number, string, string][] = [
      ['{nope', 400, 'INVALID_ARGUMENT', 'not JSON'],
      [[1], 400, 'INVALID_ARGUMENT', 'not a JSON object'],
      [{ flow: FLOW }, 400, 'INVALID_ARGUMENT', '"device" is missing'],
      [{ device: 'emulator-5554' }, 400, 'INVALID_ARGUMENT', 'give flow or goal'],
      [{ device: 'emulator-5554', flow: FLOW, goal: 'x' }, 400, 'INVALID_ARGUMENT', 'not both'],
      [{ device: 'emulator-5554', flow: FLOW, extra: 1 }, 400, 'INVALID_ARGUMENT', '"extra"'],
      [{ device: '--user 0', flow: FLOW }, 400, 'INVALID_ARGUMENT', 'device must be a serial or an AVD name'],
      [{ device: 'emulator-5554', goal: '' }, 400, 'INVALID_ARGUMENT', 'non-empty string'],
      [{ device: 'emulator-5554', goal: 'x'.repeat(4_001) }, 400, 'INVALID_ARGUMENT', 'at most 4000'],
      [{ device: 'emulator-5556', flow: FLOW }, 503, 'EMULATOR_UNAVAILABLE', "named 'emulator-5556'"],
    ];
    for (const [body, status, code, message] of cases) {
      const answer = await call('POST', '/agent/task', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.body.error?.code).toBe(code);
      expect(answer.body.error?.message).toContain(message);
      // The route a refusal points at is the harness's own, not a host path to hide.
      expect(answer.body.error?.message).not.toContain('<path>');
    }
    expect(h.automation.sessions.length, 'nothing reached Appium').toBe(0);
    expect(h.device.calls.filter((name) => name === 'startActivity')).toEqual([]);
  });

  it('a goal without an agent loop configured is refused with MODEL_UNAVAILABLE (503), nothing started', async () => {
    const h = appOnFakes();
    const call = await serve(h);
    const refused = await call('POST', '/agent/task', { device: 'emulator-5554', goal: 'Open Hello' });
    expect(refused.status).toBe(503);
    expect(refused.body.error?.code).toBe('MODEL_UNAVAILABLE');
    expect(refused.body.error?.message).toContain('needs a model endpoint and none is configured');
    expect(h.automation.sessions.length).toBe(0);
  });

  it('a goal with an agent loop: in-flow tools without session_id; calls carry the task’s flow; session tools refused; flow closed', async () => {
    const seen: { request?: GoalRunRequest; answers: { ok: boolean; code: string | null; tool: string }[] } = {
      answers: [],
    };
    const runner: GoalRunner = {
      run: async (request) => {
        seen.request = request;
        const steps = [];
        // The model tries to name another session and to close the flow: neither works.
        for (const [n, [tool, args]] of (
          [
            ['ui_tap', { selector: { text: 'Hello' }, session_id: 'somebody-elses-session-id' }],
            ['ui_session_close', {}],
            ['ui_get_tree', {}],
          ] as const
        ).entries()) {
          const envelope = await request.callTool(tool, args);
          seen.answers.push({ ok: envelope.ok, code: envelope.error?.code ?? null, tool: envelope.tool });
          const step = {
            n: n + 1,
            tool,
            ok: envelope.ok,
            ...(envelope.evidence ? { artifact_id: envelope.evidence.artifact_id } : {}),
          };
          steps.push(step);
          request.onStep(step);
        }
        return { outcome: 'passed', summary: 'Hello was tapped.', steps };
      },
    };
    const h = appOnFakes(runner);
    const call = await serve(h);
    const started = await call('POST', '/agent/task', { device: 'emulator-5554', goal: 'Tap Hello' });
    expect(started.status).toBe(202);
    const done = await settled(h, call, started.body.data!.task_id);
    expect(done).toMatchObject({
      kind: 'goal',
      state: 'passed',
      progress: { step: 3, of: 30 },
      report: { goal: 'Tap Hello', outcome: 'passed', summary: 'Hello was tapped.' },
    });
    const names = seen.request!.tools.map((tool) => tool.name);
    expect(names).toContain('ui_tap');
    expect(names).toContain('ui_get_tree');
    expect(names).not.toContain('ui_session_open');
    expect(names).not.toContain('ui_session_close');
    expect(names).not.toContain('emulator_get_status');
    for (const tool of seen.request!.tools)
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('session_id');
    expect(seen.request!.limits).toEqual({ maxSteps: 30, maxDurationMs: 600_000 });
    expect(seen.answers).toEqual([
      { ok: true, code: null, tool: 'ui_tap' },
      { ok: false, code: 'INVALID_ARGUMENT', tool: 'ui_session_close' },
      { ok: true, code: null, tool: 'ui_get_tree' },
    ]);
    // The tap ran in the task's own flow (the one driver session), which is closed now.
    expect(h.automation.sessions.length).toBe(1);
    expect(h.automation.open.size).toBe(0);
    expect(done.evidence.map((link) => link.url)).toEqual(
      done.evidence.map((link) => `/artifacts/${link.artifact_id}`),
    );
  });

  it('unknown and malformed task ids are 404; DELETE cancels; wrong methods are 405', async () => {
    const h = appOnFakes();
    const call = await serve(h);
    for (const path of ['/task/00000000-0000-4000-8000-000000000000', '/task/..%2F..%2Fetc', '/task/']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error?.code, path).toBe('NOT_FOUND');
      expect(answer.body.error?.message).toContain('no task survives a server restart');
    }
    expect((await call('DELETE', '/task/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('GET', '/agent/task')).status).toBe(405);
    expect((await call('PUT', '/task/00000000-0000-4000-8000-000000000000', {})).status).toBe(405);
    h.automation.holdOpen = true;
    const id = (await call('POST', '/agent/task', { device: 'emulator-5554', flow: FLOW })).body.data!.task_id;
    // Queued behind it on the same device.
    const queued = (await call('POST', '/agent/task', { device: 'emulator-5554', flow: FLOW })).body.data!;
    expect(queued).toMatchObject({ state: 'queued', queue_position: 1 });
    const cancelledQueued = await call('DELETE', `/task/${queued.task_id}`);
    expect(cancelledQueued.body.data).toMatchObject({ state: 'cancelled' });
    const cancelling = call('DELETE', `/task/${id}`);
    // The flow's session start is held: the task stops once it has it, and closes it.
    while (!(await call('GET', `/task/${id}`)).body.data?.cancel_requested)
      await new Promise((resolve) => setImmediate(resolve));
    expect(h.automation.log).toContain('openSession');
    h.automation.holdOpen = false;
    h.automation.release();
    const cancelled = await cancelling;
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled', progress: { step: 0 } });
    expect(h.automation.open.size).toBe(0);
  });
});
