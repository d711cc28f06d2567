/**
 * The goal loop through the real SDKs (@anthropic-ai/sdk, openai) against the scripted model
 * server on loopback, which speaks both APIs' wire formats and refuses what the real APIs refuse
 * (test/support/scriptedModelServer.ts). Verified here: the requests the SDKs build from the
 * adapters, the pairing of tool calls and results over several turns, auth, errors and aborts.
 * Not verified here: the real Anthropic and OpenAI endpoints (no key in CI).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentLoop } from '../../src/application/agent/AgentLoop.js';
import { ModelError } from '../../src/application/agent/ModelPort.js';
import type { GoalRunRequest, GoalStep, GoalTool } from '../../src/application/tasks/GoalRunner.js';
import { loadConfig } from '../../src/config.js';
import type { Envelope } from '../../src/domain/envelope.js';
import { SystemClock } from '../../src/infrastructure/clock/SystemClock.js';
import { createGoalRunner, createModel } from '../../src/wiring/goalRunner.js';
import { RecordingLogger } from '../support/fakes/RecordingLogger.js';
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedProvider,
  type ScriptStep,
} from '../support/scriptedModelServer.js';

const KEY = 'sk-test-0123456789abcdef-KEY';
const TOOLS: readonly GoalTool[] = [
  {
    name: 'ui_get_tree',
    description: 'Reads the screen',
    inputSchema: { type: 'object', properties: { include_raw: { type: 'boolean' } } },
  },
  {
    name: 'ui_tap',
    description: 'Taps',
    inputSchema: { type: 'object', properties: { selector: { type: 'object' } }, required: ['selector'] },
  },
];

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Polls a condition of the server (its own event loop answers between polls); fails with `what` after a generous bound. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`never happened: ${what}`);
}

function envelopeFor(name: string, args: Readonly<Record<string, unknown>>): Envelope {
  return {
    ok: true,
    operation_id: 'op-7',
    tool: name,
    data:
      name === 'ui_tap'
        ? { target: args.selector, foreground_package: 'com.android.settings' }
        : { texts: ['Settings', 'Network'] },
    evidence: name === 'ui_tap' ? { artifact_id: 'shot-1' } : null,
    error: null,
  };
}

function harness(
  provider: ScriptedProvider,
  script: readonly ScriptStep[],
  options: { key?: string; maxRetries?: number; signal?: AbortSignal } = {},
): Promise<{ run: () => ReturnType<AgentLoop['run']>; steps: GoalStep[]; calls: string[]; logger: RecordingLogger }> {
  return startScriptedModelServer({ apiKey: KEY, script }).then((started) => {
    server = started;
    const logger = new RecordingLogger();
    const config = loadConfig(
      {
        ANDROID_MCP_MODEL_PROVIDER: provider,
        ANDROID_MCP_MODEL: provider === 'anthropic' ? 'claude-test' : 'gpt-test',
        ANDROID_MCP_MODEL_BASE_URL: started.baseUrl(provider),
        ANDROID_MCP_MODEL_API_KEY: options.key ?? KEY,
      },
      () => undefined,
    );
    if (!config.model) throw new Error('the model configuration was refused');
    const loop = new AgentLoop({
      model: createModel(config.model, { logger, maxRetries: options.maxRetries ?? 0 }),
      clock: new SystemClock(),
      logger,
    });
    const steps: GoalStep[] = [];
    const calls: string[] = [];
    const request: GoalRunRequest = {
      goal: 'Open the network settings',
      tools: TOOLS,
      callTool: async (name, args) => {
        calls.push(name);
        return envelopeFor(name, args);
      },
      limits: { maxSteps: 10, maxDurationMs: 60_000 },
      signal: options.signal ?? new AbortController().signal,
      onStep: (step) => steps.push(step),
    };
    return { run: () => loop.run(request), steps, calls, logger };
  });
}

describe.each<ScriptedProvider>(['anthropic', 'openai'])(
  'the goal loop through the %s SDK and wire format',
  (provider) => {
    it('runs the scripted calls over several turns and passes on finish, each result answering its call', async () => {
      const h = await harness(provider, [
        { kind: 'tools', text: 'Reading the screen.', calls: [{ name: 'ui_get_tree', input: {} }] },
        (seen) => {
          // The result of ui_get_tree came back as the compact envelope, under the id the server gave.
          expect(seen.toolResults).toHaveLength(1);
          expect(JSON.parse(seen.toolResults[0]?.content ?? '')).toEqual({
            ok: true,
            tool: 'ui_get_tree',
            error: null,
            evidence: null,
            data: { texts: ['Settings', 'Network'] },
          });
          if (provider === 'anthropic') expect(seen.toolResults[0]?.isError).toBe(false);
          return {
            kind: 'tools',
            calls: [
              { name: 'ui_tap', input: { selector: { text: 'Network' } } },
              { name: 'ui_get_tree', input: {} },
            ],
          };
        },
        (seen) => {
          expect(seen.toolResults.map((r) => JSON.parse(r.content).tool)).toEqual(['ui_tap', 'ui_get_tree']);
          expect(JSON.parse(seen.toolResults[0]?.content ?? '').evidence).toEqual({ artifact_id: 'shot-1' });
          return {
            kind: 'tools',
            calls: [{ name: 'finish', input: { met: true, summary: 'The network settings are open.' } }],
          };
        },
      ]);
      const outcome = await h.run();

      expect(server?.rejections).toEqual([]);
      expect(outcome).toEqual({
        outcome: 'passed',
        summary: 'The network settings are open.',
        steps: [
          { n: 1, tool: 'ui_get_tree', ok: true, note: 'Reading the screen.' },
          { n: 2, tool: 'ui_tap', ok: true, artifact_id: 'shot-1' },
          { n: 3, tool: 'ui_get_tree', ok: true },
        ],
      });
      expect(h.calls).toEqual(['ui_get_tree', 'ui_tap', 'ui_get_tree']);
      expect(server?.requests).toHaveLength(3);
      const first = server?.requests[0];
      expect(first?.toolNames).toEqual(['ui_get_tree', 'ui_tap', 'finish']);
      expect(first?.body.model).toBe(provider === 'anthropic' ? 'claude-test' : 'gpt-test');
      if (provider === 'anthropic') {
        expect(first?.body.max_tokens).toBe(4096);
        expect(first?.body.system).toMatch(/call finish alone/);
      } else {
        expect((first?.body.messages as { role: string }[])[0]?.role).toBe('system');
      }
    });

    it("answers an unknown tool and arguments that are not an object with the harness's error, and goes on", async () => {
      const bad =
        provider === 'openai'
          ? { name: 'ui_tap', rawArguments: '{"selector": {"text": "Net' }
          : { name: 'ui_tap', input: { selector: { text: 'Net' } } };
      const h = await harness(provider, [
        { kind: 'tools', calls: [{ name: 'tap_at', input: { x: 100, y: 200 } }, bad] },
        (seen) => {
          const answers = seen.toolResults.map((r) => JSON.parse(r.content) as Envelope);
          expect(answers[0]).toMatchObject({ ok: false, tool: 'tap_at', error: { code: 'INVALID_ARGUMENT' } });
          if (provider === 'openai')
            expect(answers[1]).toMatchObject({
              ok: false,
              error: { code: 'INVALID_ARGUMENT', message: expect.stringMatching(/one JSON object/) },
            });
          else expect(answers[1]).toMatchObject({ ok: true, tool: 'ui_tap' });
          return { kind: 'tools', calls: [{ name: 'finish', input: { met: false, summary: 'Could not tap.' } }] };
        },
      ]);
      const outcome = await h.run();
      expect(server?.rejections).toEqual([]);
      expect(outcome.outcome).toBe('failed');
      expect(outcome.summary).toBe('Could not tap.');
      expect(outcome.steps[0]).toEqual({ n: 1, tool: 'tap_at', ok: false, error_code: 'INVALID_ARGUMENT' });
      expect(h.calls).toEqual(provider === 'openai' ? [] : ['ui_tap']);
    });

    it('ends with a typed auth error on a wrong key, and the key is nowhere in the outcome or the log', async () => {
      const wrong = 'sk-wrong-9876543210fedcba-KEY';
      const h = await harness(provider, [], { key: wrong });
      const outcome = await h.run();
      expect(outcome.outcome).toBe('failed');
      expect(outcome.summary).toMatch(/\(auth, HTTP 401\)/);
      const everything = JSON.stringify({ outcome, log: h.logger.entries });
      expect(everything).not.toContain(wrong);
      // OpenAI's 401 quotes the key masked: even its ends are cut out.
      expect(everything).not.toContain(wrong.slice(-4));
      expect(everything).not.toContain(KEY);
    });

    it.each([
      [429, 'rate_limited'],
      [500, 'server'],
    ])('types an HTTP %i from the endpoint as %s', async (status, kind) => {
      const h = await harness(provider, [
        { kind: 'tools', calls: [{ name: 'ui_get_tree', input: {} }] },
        { kind: 'error', status, message: 'scripted trouble' },
      ]);
      const outcome = await h.run();
      expect(outcome.outcome).toBe('failed');
      expect(outcome.summary).toContain(`(${kind}, HTTP ${status})`);
      expect(outcome.summary).toContain('scripted trouble');
      expect(outcome.steps).toHaveLength(1);
    });

    it('lets the SDK retry a 429 that says when (retry-after-ms), and goes on', async () => {
      const h = await harness(
        provider,
        [
          { kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after-ms': '10' } },
          { kind: 'tools', calls: [{ name: 'finish', input: { met: true, summary: 'ok' } }] },
        ],
        { maxRetries: 1 },
      );
      const outcome = await h.run();
      expect(outcome.outcome).toBe('passed');
      expect(server?.requests).toHaveLength(2);
    });

    it('on cancel, aborts the model request in flight: the endpoint sees the connection closed', async () => {
      const controller = new AbortController();
      const h = await harness(provider, [{ kind: 'hang' }], { signal: controller.signal });
      const running = h.run();
      await until(() => (server?.pendingRequests() ?? 0) > 0, 'the model request reached the server');
      controller.abort();
      const outcome = await running;
      expect(outcome.summary).toMatch(/cancelled/);
      await until(() => (server?.abortedRequests() ?? 0) > 0, 'the server saw the request aborted');
      expect(server?.pendingRequests()).toBe(0);
      expect(server?.abortedRequests()).toBe(1);
    });
  },
);

describe('the adapters throw typed ModelErrors', () => {
  it.each<[ScriptedProvider, number, string]>([
    ['anthropic', 529, 'overloaded'],
    ['openai', 404, 'not_found'],
    ['anthropic', 400, 'bad_request'],
  ])('%s HTTP %i is %s', async (provider, status, kind) => {
    server = await startScriptedModelServer({ apiKey: KEY, script: [{ kind: 'error', status }] });
    const config = loadConfig(
      {
        ANDROID_MCP_MODEL_PROVIDER: provider,
        ANDROID_MCP_MODEL: 'm',
        ANDROID_MCP_MODEL_BASE_URL: server.baseUrl(provider),
        ANDROID_MCP_MODEL_API_KEY: KEY,
      },
      () => undefined,
    );
    if (!config.model) throw new Error('refused');
    const model = createModel(config.model, { logger: new RecordingLogger(), maxRetries: 0 });
    const error = await model
      .next({ system: 's', tools: [], messages: [{ role: 'user', text: 'hi' }], signal: new AbortController().signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind, status });
  });

  it('a connection refused is a connection error', async () => {
    server = await startScriptedModelServer({ apiKey: KEY, script: [] });
    const url = server.baseUrl('openai');
    await server.stop();
    server = undefined;
    const config = loadConfig(
      {
        ANDROID_MCP_MODEL_PROVIDER: 'openai',
        ANDROID_MCP_MODEL: 'm',
        ANDROID_MCP_MODEL_BASE_URL: url,
        OPENAI_API_KEY: KEY,
      },
      () => undefined,
    );
    if (!config.model) throw new Error('refused');
    const error = await createModel(config.model, { logger: new RecordingLogger(), maxRetries: 0 })
      .next({ system: 's', tools: [], messages: [{ role: 'user', text: 'hi' }], signal: new AbortController().signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'connection', status: null });
  });
});

describe('the scripted server is no kinder than the APIs', () => {
  it.each<ScriptedProvider>(['anthropic', 'openai'])(
    '%s: refuses a result that does not answer the previous call, and a call left unanswered',
    async (provider) => {
      server = await startScriptedModelServer({
        apiKey: KEY,
        script: [{ kind: 'tools', calls: [{ name: 'ui_tap', input: { selector: { text: 'A' } } }] }],
      });
      const headers: Record<string, string> =
        provider === 'anthropic'
          ? { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }
          : { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const url =
        provider === 'anthropic'
          ? `${server.baseUrl(provider)}/v1/messages`
          : `${server.baseUrl(provider)}/chat/completions`;
      const post = async (body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const first = await post(
        provider === 'anthropic'
          ? { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'go' }] }
          : { model: 'm', messages: [{ role: 'user', content: 'go' }] },
      );
      expect(first.status).toBe(200);
      const sentCall =
        provider === 'anthropic'
          ? ((first.body.content as Record<string, unknown>[])[0] as { id: string; name: string; input: unknown })
          : ((
              (first.body.choices as Record<string, unknown>[])[0]?.message as {
                tool_calls: { id: string; function: { name: string; arguments: string } }[];
              }
            ).tool_calls[0] as {
              id: string;
              function: { name: string; arguments: string };
            });
      const wrongId =
        provider === 'anthropic'
          ? {
              model: 'm',
              max_tokens: 10,
              messages: [
                { role: 'user', content: 'go' },
                { role: 'assistant', content: [first.body.content as unknown[]].flat() },
                {
                  role: 'user',
                  content: [
                    { type: 'tool_result', tool_use_id: sentCall.id, content: '{}' },
                    { type: 'tool_result', tool_use_id: 'toolu_other', content: '{}' },
                  ],
                },
              ],
            }
          : {
              model: 'm',
              messages: [
                { role: 'user', content: 'go' },
                {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    { id: sentCall.id, type: 'function', function: (sentCall as { function: unknown }).function },
                  ],
                },
                { role: 'tool', tool_call_id: sentCall.id, content: '{}' },
                { role: 'tool', tool_call_id: 'call_other', content: '{}' },
              ],
            };
      const refused = await post(wrongId);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(
        provider === 'anthropic'
          ? /unexpected `tool_use_id`/
          : /must be a response to a preceeding message with 'tool_calls'/,
      );
      const unanswered =
        provider === 'anthropic'
          ? {
              model: 'm',
              max_tokens: 10,
              messages: [
                { role: 'user', content: 'go' },
                { role: 'assistant', content: first.body.content },
                { role: 'user', content: 'and?' },
              ],
            }
          : {
              model: 'm',
              messages: [
                { role: 'user', content: 'go' },
                {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    { id: sentCall.id, type: 'function', function: (sentCall as { function: unknown }).function },
                  ],
                },
                { role: 'user', content: 'and?' },
              ],
            };
      const refusedToo = await post(unanswered);
      expect(refusedToo.status).toBe(400);
      expect(JSON.stringify(refusedToo.body)).toMatch(
        provider === 'anthropic' ? /without `tool_result` blocks immediately after/ : /did not have response messages/,
      );
      expect(server.rejections).toHaveLength(2);
    },
  );

  it('refuses a request without the key the test configured', async () => {
    server = await startScriptedModelServer({ apiKey: KEY, script: [] });
    const response = await fetch(`${server.baseUrl('anthropic')}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
  });
});

describe('createGoalRunner', () => {
  it('is null without a model, a runner with one, and says which variable holds the key without its value', () => {
    const logger = new RecordingLogger();
    const clock = new SystemClock();
    expect(
      createGoalRunner(
        loadConfig({}, () => undefined),
        { clock, logger },
      ),
    ).toBeNull();
    const config = loadConfig(
      { ANDROID_MCP_MODEL_PROVIDER: 'anthropic', ANDROID_MCP_MODEL: 'claude-x', ANTHROPIC_API_KEY: KEY },
      () => undefined,
    );
    expect(createGoalRunner(config, { clock, logger })).not.toBeNull();
    expect(logger.entries).toEqual([
      {
        level: 'info',
        message: 'goal tasks use a model',
        fields: {
          provider: 'anthropic',
          model: 'claude-x',
          base_url: 'https://api.anthropic.com',
          key_from: 'ANTHROPIC_API_KEY',
        },
      },
    ]);
    expect(JSON.stringify(config)).not.toContain(KEY);
  });
});
