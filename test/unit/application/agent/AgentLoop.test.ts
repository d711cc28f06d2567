import { describe, expect, it } from 'vitest';
import { AgentLoop } from '../../../../src/application/agent/AgentLoop.js';
import {
  ModelAborted,
  ModelError,
  type ModelPort,
  type ModelRequest,
  type ModelToolCall,
  type ModelTurn,
} from '../../../../src/application/agent/ModelPort.js';
import type { GoalRunRequest, GoalStep, GoalTool } from '../../../../src/application/tasks/GoalRunner.js';
import type { Envelope } from '../../../../src/domain/envelope.js';
import { FakeClock } from '../../../support/FakeClock.js';
import { RecordingLogger } from '../../../support/fakes/RecordingLogger.js';

const TOOLS: readonly GoalTool[] = [
  { name: 'ui_get_tree', description: 'Reads the screen', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'ui_tap',
    description: 'Taps',
    inputSchema: { type: 'object', properties: { selector: { type: 'object' } }, required: ['selector'] },
  },
  {
    name: 'ui_type_text',
    description: 'Types',
    inputSchema: { type: 'object', properties: { selector: { type: 'object' }, text: { type: 'string' } } },
  },
];

let callCounter = 0;
function call(name: string, input: Record<string, unknown> | null, rawInput?: string): ModelToolCall {
  callCounter += 1;
  return { id: `call_${callCounter}`, name, input, rawInput: rawInput ?? JSON.stringify(input) };
}
const tools = (...calls: ModelToolCall[]): ModelTurn => ({ text: '', calls, stop: 'tool_use' });
const finish = (met: boolean, summary: string): ModelTurn => tools(call('finish', { met, summary }));

type Reply = ModelTurn | Error | ((request: ModelRequest) => Promise<ModelTurn>);

/** A model that answers from a script and keeps every request it saw (the messages copied then). */
class ScriptedModel implements ModelPort {
  readonly label = 'scripted:test';
  readonly requests: {
    messages: ModelRequest['messages'];
    tools: readonly string[];
    signal: AbortSignal;
    system: string;
  }[] = [];
  constructor(private readonly script: Reply[]) {}
  async next(request: ModelRequest): Promise<ModelTurn> {
    this.requests.push({
      messages: structuredClone(request.messages),
      tools: request.tools.map((t) => t.name),
      signal: request.signal,
      system: request.system,
    });
    const reply = this.script.shift();
    if (reply === undefined) throw new Error('the scripted model was asked once too often');
    if (reply instanceof Error) throw reply;
    if (typeof reply === 'function') return reply(request);
    return reply;
  }
}

/** Until the signal aborts; then rejects as the adapters do. */
function untilAborted(request: ModelRequest): Promise<ModelTurn> {
  return new Promise((_resolve, reject) => {
    if (request.signal.aborted) reject(new ModelAborted());
    request.signal.addEventListener('abort', () => reject(new ModelAborted()), { once: true });
  });
}

function envelope(tool: string, ok = true, extra: Partial<Envelope> = {}): Envelope {
  return {
    ok,
    operation_id: 'op-1',
    tool,
    data: ok ? { foreground_package: 'com.example' } : {},
    evidence: null,
    error: ok ? null : { code: 'UI_ELEMENT_NOT_FOUND', message: 'No element matched.' },
    ...extra,
  };
}

interface Fixture {
  readonly clock: FakeClock;
  readonly logger: RecordingLogger;
  readonly steps: GoalStep[];
  readonly calls: { name: string; args: Readonly<Record<string, unknown>> }[];
  readonly controller: AbortController;
  request(overrides?: Partial<GoalRunRequest>): GoalRunRequest;
  loop(model: ModelPort): AgentLoop;
}

function fixture(callTool?: GoalRunRequest['callTool']): Fixture {
  const clock = new FakeClock();
  const logger = new RecordingLogger();
  const steps: GoalStep[] = [];
  const calls: { name: string; args: Readonly<Record<string, unknown>> }[] = [];
  const controller = new AbortController();
  return {
    clock,
    logger,
    steps,
    calls,
    controller,
    request: (overrides = {}) => ({
      goal: 'Open the settings',
      tools: TOOLS,
      callTool: async (name, args) => {
        calls.push({ name, args });
        return callTool ? callTool(name, args) : envelope(name);
      },
      limits: { maxSteps: 10, maxDurationMs: 60_000 },
      signal: controller.signal,
      onStep: (step) => steps.push(step),
      ...overrides,
    }),
    loop: (model) => new AgentLoop({ model, clock, logger }),
  };
}

describe('AgentLoop', () => {
  it('runs the calls the model asks for, feeds each envelope back, and passes when finish says met', async () => {
    const f = fixture();
    const model = new ScriptedModel([
      { text: 'I read the screen first.', calls: [call('ui_get_tree', {})], stop: 'tool_use' },
      tools(call('ui_tap', { selector: { text: 'Settings' } })),
      finish(true, 'The settings screen is open.'),
    ]);
    const outcome = await f.loop(model).run(f.request());

    expect(outcome).toEqual({
      outcome: 'passed',
      summary: 'The settings screen is open.',
      steps: [
        { n: 1, tool: 'ui_get_tree', ok: true, note: 'I read the screen first.' },
        { n: 2, tool: 'ui_tap', ok: true },
      ],
    });
    expect(f.steps).toEqual(outcome.steps);
    expect(f.calls).toEqual([
      { name: 'ui_get_tree', args: {} },
      { name: 'ui_tap', args: { selector: { text: 'Settings' } } },
    ]);
    // The model saw the harness's tools plus finish, the goal first, then each result under its call's id.
    expect(model.requests[0]?.tools).toEqual(['ui_get_tree', 'ui_tap', 'ui_type_text', 'finish']);
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', text: 'Open the settings' }]);
    expect(model.requests[0]?.system).toMatch(/at most 10 tool calls and 60 seconds/);
    const second = model.requests[1]?.messages ?? [];
    const results = second[2];
    expect(results?.role).toBe('tool_results');
    if (results?.role !== 'tool_results') throw new Error('unreachable');
    expect(results.results).toHaveLength(1);
    expect(results.results[0]?.isError).toBe(false);
    // The compact envelope: JSON, without operation_id.
    expect(JSON.parse(results.results[0]?.content ?? '')).toEqual({
      ok: true,
      tool: 'ui_get_tree',
      error: null,
      evidence: null,
      data: { foreground_package: 'com.example' },
    });
    expect(f.clock.pendingTimers()).toBe(0);
  });

  it("fails with the model's summary when finish says not met", async () => {
    const f = fixture();
    const outcome = await f
      .loop(new ScriptedModel([finish(false, 'There is no settings app on this device.')]))
      .run(f.request());
    expect(outcome).toEqual({ outcome: 'failed', summary: 'There is no settings app on this device.', steps: [] });
  });

  it('stops at the step limit, without running the call past it', async () => {
    const f = fixture();
    const model = new ScriptedModel([
      tools(call('ui_get_tree', {})),
      tools(call('ui_tap', { selector: { text: 'A' } }), call('ui_tap', { selector: { text: 'B' } })),
      tools(call('ui_tap', { selector: { text: 'C' } })),
    ]);
    const outcome = await f.loop(model).run(f.request({ limits: { maxSteps: 2, maxDurationMs: 60_000 } }));
    expect(outcome.outcome).toBe('failed');
    expect(outcome.limit).toBe('steps');
    expect(outcome.summary).toMatch(/step limit \(2 tool calls\)/);
    expect(outcome.steps.map((s) => s.n)).toEqual([1, 2]);
    expect(f.calls.map((c) => c.args)).toEqual([{}, { selector: { text: 'A' } }]);
    expect(model.requests).toHaveLength(2);
  });

  it('lets the model finish on the turn after its last allowed step', async () => {
    const f = fixture();
    const model = new ScriptedModel([tools(call('ui_tap', { selector: { text: 'A' } })), finish(true, 'Done.')]);
    const outcome = await f.loop(model).run(f.request({ limits: { maxSteps: 1, maxDurationMs: 60_000 } }));
    expect(outcome).toMatchObject({ outcome: 'passed', summary: 'Done.' });
    expect(outcome.limit).toBeUndefined();
  });

  it('stops at the time limit: the model request in flight is aborted', async () => {
    const f = fixture();
    const model = new ScriptedModel([tools(call('ui_get_tree', {})), untilAborted]);
    const running = f.loop(model).run(f.request({ limits: { maxSteps: 10, maxDurationMs: 30_000 } }));
    await f.clock.advance(29_999);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.signal.aborted).toBe(false);
    await f.clock.advance(1);
    const outcome = await running;
    expect(model.requests[1]?.signal.aborted).toBe(true);
    expect(outcome).toMatchObject({ outcome: 'failed', limit: 'time' });
    expect(outcome.summary).toMatch(/time limit \(30 s\)/);
    expect(outcome.steps).toHaveLength(1);
    expect(f.clock.pendingTimers()).toBe(0);
  });

  it('stops at the time limit after a slow tool call, without asking the model again', async () => {
    // Assigned once the fixture that reads it exists: it cannot be a const.
    // eslint-disable-next-line prefer-const
    let clock: FakeClock | undefined;
    const f = fixture(async (name) => {
      await clock?.advance(40_000);
      return envelope(name);
    });
    clock = f.clock;
    const model = new ScriptedModel([tools(call('ui_get_tree', {}))]);
    const outcome = await f.loop(model).run(f.request({ limits: { maxSteps: 10, maxDurationMs: 30_000 } }));
    expect(outcome).toMatchObject({ outcome: 'failed', limit: 'time' });
    expect(outcome.steps).toEqual([{ n: 1, tool: 'ui_get_tree', ok: true }]);
    expect(model.requests).toHaveLength(1);
  });

  it('on cancel mid-call, waits for the call in flight, then stops without another model request or call', async () => {
    let release!: () => void;
    const f = fixture((name) => new Promise((resolve) => (release = () => resolve(envelope(name)))));
    const model = new ScriptedModel([
      tools(call('ui_tap', { selector: { text: 'A' } }), call('ui_tap', { selector: { text: 'B' } })),
    ]);
    let settled = false;
    const running = f
      .loop(model)
      .run(f.request())
      .finally(() => (settled = true));
    await f.clock.advance(0);
    expect(f.calls).toHaveLength(1);
    f.controller.abort();
    await f.clock.advance(0);
    // The tap in flight is not abandoned while it may still act on the device.
    expect(settled).toBe(false);
    release();
    const outcome = await running;
    expect(outcome.outcome).toBe('failed');
    expect(outcome.summary).toMatch(/cancelled/);
    expect(outcome.steps).toEqual([{ n: 1, tool: 'ui_tap', ok: true }]);
    expect(f.calls).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect(f.clock.pendingTimers()).toBe(0);
  });

  it('on cancel mid-request, aborts the model request', async () => {
    const f = fixture();
    const model = new ScriptedModel([untilAborted]);
    const running = f.loop(model).run(f.request());
    await f.clock.advance(0);
    f.controller.abort();
    const outcome = await running;
    expect(model.requests[0]?.signal.aborted).toBe(true);
    expect(outcome).toMatchObject({ outcome: 'failed', steps: [] });
    expect(outcome.summary).toMatch(/cancelled/);
    expect(outcome.limit).toBeUndefined();
  });

  it('does not start when the task is already cancelled', async () => {
    const f = fixture();
    f.controller.abort();
    const model = new ScriptedModel([]);
    const outcome = await f.loop(model).run(f.request());
    expect(outcome.summary).toMatch(/cancelled/);
    expect(model.requests).toHaveLength(0);
  });

  it.each([
    [
      new ModelError('rate_limited', 429, 'The model endpoint is rate limiting this key; try again later.'),
      /rate_limited, HTTP 429/,
    ],
    [new ModelError('server', 500, 'The model endpoint failed on its side; try again later.'), /server, HTTP 500/],
    [
      new ModelError('connection', null, 'The model endpoint could not be reached.'),
      /\(connection\): The model endpoint could not be reached/,
    ],
  ])('ends on a model error with its kind and status: %s', async (error, pattern) => {
    const f = fixture();
    const outcome = await f.loop(new ScriptedModel([tools(call('ui_get_tree', {})), error])).run(f.request());
    expect(outcome.outcome).toBe('failed');
    expect(outcome.summary).toMatch(pattern);
    expect(outcome.steps).toHaveLength(1);
    expect(f.logger.entries.find((e) => e.message === 'goal loop ended')?.fields).toMatchObject({
      halt: 'model_error',
      model_error: error.kind,
    });
  });

  it("answers an unknown tool with the harness's error envelope and goes on", async () => {
    const f = fixture();
    const model = new ScriptedModel([tools(call('ui_tap_xy', { x: 10, y: 20 })), finish(true, 'ok')]);
    const outcome = await f.loop(model).run(f.request());
    expect(outcome.outcome).toBe('passed');
    expect(outcome.steps).toEqual([{ n: 1, tool: 'ui_tap_xy', ok: false, error_code: 'INVALID_ARGUMENT' }]);
    expect(f.calls).toHaveLength(0);
    const results = model.requests[1]?.messages[2];
    if (results?.role !== 'tool_results') throw new Error('expected tool results');
    expect(results.results[0]?.isError).toBe(true);
    expect(JSON.parse(results.results[0]?.content ?? '')).toMatchObject({
      ok: false,
      tool: 'ui_tap_xy',
      error: {
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/no tool named 'ui_tap_xy'.*ui_get_tree, ui_tap, ui_type_text, finish/),
      },
    });
  });

  it('answers arguments that are not a JSON object itself, and passes the others to the tool, which judges them', async () => {
    const f = fixture(async (name, args) =>
      'selector' in args
        ? envelope(name)
        : { ...envelope(name, false), error: { code: 'INVALID_SELECTOR', message: 'A selector is required.' } },
    );
    const model = new ScriptedModel([
      tools(call('ui_tap', null, '{"selector": {"text": "A"')),
      tools(call('ui_tap', { target: 'A' })),
      finish(true, 'ok'),
    ]);
    const outcome = await f.loop(model).run(f.request());
    expect(outcome.steps).toEqual([
      { n: 1, tool: 'ui_tap', ok: false, error_code: 'INVALID_ARGUMENT' },
      { n: 2, tool: 'ui_tap', ok: false, error_code: 'INVALID_SELECTOR' },
    ]);
    expect(f.calls).toEqual([{ name: 'ui_tap', args: { target: 'A' } }]);
    expect(outcome.outcome).toBe('passed');
  });

  it('refuses a finish with bad arguments, or sent beside other calls, as a step the model can correct', async () => {
    const f = fixture();
    const model = new ScriptedModel([
      tools(call('finish', { met: 'yes' })),
      tools(
        call('ui_tap', { selector: { text: 'A' } }),
        call('finish', { met: true, summary: 'Tapped, surely fine.' }),
      ),
      finish(true, 'Seen: done.'),
    ]);
    const outcome = await f.loop(model).run(f.request());
    expect(outcome).toMatchObject({ outcome: 'passed', summary: 'Seen: done.' });
    expect(outcome.steps).toEqual([
      { n: 1, tool: 'finish', ok: false, error_code: 'INVALID_ARGUMENT' },
      { n: 2, tool: 'ui_tap', ok: true },
      { n: 3, tool: 'finish', ok: false, error_code: 'INVALID_ARGUMENT' },
    ]);
    const results = model.requests[2]?.messages.at(-1);
    if (results?.role !== 'tool_results') throw new Error('expected tool results');
    expect(results.results.map((r) => r.isError)).toEqual([false, true]);
    expect(results.results[1]?.content).toMatch(/must be called alone/);
  });

  it('reminds a model that ends its turn without finish once, then fails', async () => {
    const f = fixture();
    const model = new ScriptedModel([
      { text: 'All done!', calls: [], stop: 'end_turn' },
      { text: 'Really done.', calls: [], stop: 'end_turn' },
    ]);
    const outcome = await f.loop(model).run(f.request());
    expect(outcome.outcome).toBe('failed');
    expect(outcome.summary).toMatch(/ended its turn twice without calling finish.*Really done/);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'user',
      text: expect.stringMatching(/without calling finish/),
    });
  });

  it('keeps typed text out of the record: notes and summary have it cut out, the step has no arguments', async () => {
    const f = fixture();
    const secret = 'hunter2-Secret';
    const model = new ScriptedModel([
      {
        text: `Typing ${secret} into the password field.`,
        calls: [call('ui_type_text', { selector: { input_hint: 'Password' }, text: secret })],
        stop: 'tool_use',
      },
      finish(true, `Signed in with ${secret}.`),
    ]);
    const outcome = await f.loop(model).run(f.request({ goal: `Sign in with password ${secret}` }));
    expect(f.calls[0]?.args.text).toBe(secret);
    const record = JSON.stringify({ outcome, steps: f.steps, log: f.logger.entries });
    expect(record).not.toContain(secret);
    expect(outcome.steps[0]?.note).toBe('Typing [typed text] into the password field.');
    expect(outcome.summary).toBe('Signed in with [typed text].');
  });

  it('bounds what the model reads of a long envelope, and still gives it valid JSON', async () => {
    const long = { texts: Array.from({ length: 5_000 }, (_, i) => `line ${i}`) };
    const f = fixture(async (name) => ({ ...envelope(name), data: long }));
    const model = new ScriptedModel([tools(call('ui_get_tree', {})), finish(true, 'ok')]);
    await new AgentLoop({ model, clock: f.clock, logger: f.logger, maxResultChars: 4_000 }).run(f.request());
    const results = model.requests[1]?.messages.at(-1);
    if (results?.role !== 'tool_results') throw new Error('expected tool results');
    const content = results.results[0]?.content ?? '';
    expect(content.length).toBeLessThanOrEqual(4_000);
    const parsed = JSON.parse(content) as { data_truncated: { total_chars: number; returned_chars: number } };
    expect(parsed.data_truncated.total_chars).toBe(JSON.stringify(long).length);
    expect(parsed.data_truncated.returned_chars).toBeGreaterThan(1_000);
  });

  it('stops acting when callTool throws (a broken flow), recording the step', async () => {
    const f = fixture(() => Promise.reject(new Error('flow gone')));
    const model = new ScriptedModel([tools(call('ui_tap', { selector: { text: 'A' } }))]);
    const outcome = await f.loop(model).run(f.request());
    expect(outcome.outcome).toBe('failed');
    expect(outcome.summary).toMatch(/could not run ui_tap: Error: flow gone/);
    expect(outcome.steps).toEqual([{ n: 1, tool: 'ui_tap', ok: false, error_code: 'INTERNAL_ERROR' }]);
    expect(model.requests).toHaveLength(1);
  });
});
