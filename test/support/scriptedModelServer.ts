/**
 * A scripted model endpoint on loopback that speaks both wire formats the harness's model adapters
 * use, so the real SDKs can be tested against it:
 *
 * - Anthropic Messages: `POST /v1/messages`, `x-api-key` and `anthropic-version` headers, tool calls
 *   as `tool_use` content blocks with `stop_reason: "tool_use"`, results as `tool_result` blocks;
 *   errors `{type: "error", error: {type, message}}` with a `request-id` header.
 * - OpenAI chat completions: `POST /v1/chat/completions`, `Authorization: Bearer`, tool calls as
 *   `choices[0].message.tool_calls` (arguments a JSON string) with `finish_reason: "tool_calls"`,
 *   results as `role: "tool"` messages; errors `{error: {message, type, param, code}}`.
 *
 * It is no kinder than the APIs: it refuses a wrong key (OpenAI's 401 quotes the key masked, as
 * the real one does), a missing version header, a tool_result that does not answer a tool_use of
 * the message just before, a tool_use left without its result, results that are not first in their
 * message, a tool message without a preceding tool_calls, and tools that are not object schemas.
 * Stricter in one way, on purpose: the assistant turns a client replays must be the ones this
 * server sent (same ids, names and arguments), so a loop that rewrites history is caught.
 *
 * Each accepted request takes the next reply of the script; a request past its end is answered 500
 * and recorded as a rejection, so a test that sends one request too many fails loudly.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ScriptedProvider = 'anthropic' | 'openai';

export interface ScriptedCall {
  readonly name: string;
  readonly input?: unknown;
  /** OpenAI only: the `arguments` string exactly as sent (broken JSON, for instance); default JSON.stringify(input). */
  readonly rawArguments?: string;
}

export type ScriptedReply =
  | { readonly kind: 'tools'; readonly calls: readonly ScriptedCall[]; readonly text?: string }
  | { readonly kind: 'text'; readonly text: string; readonly stop?: 'end_turn' | 'max_tokens' | 'refusal' }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly message?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** Never answers; the test aborts the request, and the server counts the closed connection. */
  | { readonly kind: 'hang' };

/** What the server saw of one accepted request (the auth header is not kept). */
export interface SeenRequest {
  readonly provider: ScriptedProvider;
  readonly body: Record<string, unknown>;
  /** The results the request carries for the previous turn's calls: id and the content string. */
  readonly toolResults: readonly { readonly id: string; readonly content: string; readonly isError: boolean | null }[];
  /** Tool names the request offers. */
  readonly toolNames: readonly string[];
}

export type ScriptStep = ScriptedReply | ((request: SeenRequest) => ScriptedReply);

export interface ScriptedModelServer {
  /** For the SDK: `http://127.0.0.1:<port>` (Anthropic) or `…/v1` (OpenAI), as each SDK's baseURL expects. */
  baseUrl(provider: ScriptedProvider): string;
  readonly requests: readonly SeenRequest[];
  /** Requests refused for breaking the API's rules: status and message. */
  readonly rejections: readonly { readonly status: number; readonly message: string }[];
  /** Requests whose client closed the connection before the answer (an aborted request). */
  abortedRequests(): number;
  /** Requests still waiting for an answer ('hang'). */
  pendingRequests(): number;
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The API versions there are (docs: "Versions"); the SDK 1.x sends 2026-10-21. */
const ANTHROPIC_VERSIONS: readonly string[] = ['2023-06-01', '2026-10-21'];
const ANTHROPIC_TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const OPENAI_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly errorType: string,
    message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The calls this server sent, by id, to check what a client replays. */
interface SentCall {
  readonly name: string;
  readonly input: unknown;
  readonly rawArguments: string;
}

export async function startScriptedModelServer(options: {
  readonly apiKey: string;
  readonly script: readonly ScriptStep[];
}): Promise<ScriptedModelServer> {
  const script = [...options.script];
  const requests: SeenRequest[] = [];
  const rejections: { status: number; message: string }[] = [];
  const sent = new Map<string, SentCall>();
  const hanging = new Set<ServerResponse>();
  let aborted = 0;
  let nextId = 1;
  const id = (prefix: string): string => `${prefix}${String(nextId++).padStart(6, '0')}scripted`;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const provider: ScriptedProvider | null =
      req.url === '/v1/messages' ? 'anthropic' : req.url === '/v1/chat/completions' ? 'openai' : null;
    try {
      if (provider === null || req.method !== 'POST')
        throw new Refusal(404, 'not_found_error', `No route ${req.method ?? ''} ${req.url ?? ''}.`);
      checkAuth(provider, req, options.apiKey);
      const body = await readJson(req);
      const seen =
        provider === 'anthropic'
          ? checkAnthropic(body, sent, String(req.headers['anthropic-version']))
          : checkOpenAi(body, sent);
      requests.push(seen);
      const step = script.shift();
      if (step === undefined)
        throw new Refusal(500, 'api_error', 'The script has no more replies: the client sent one request too many.');
      const reply = typeof step === 'function' ? step(seen) : step;
      if (reply.kind === 'hang') {
        hanging.add(res);
        // The client's abort closes the socket: counted, so a test can see nothing is left waiting.
        res.once('close', () => {
          if (hanging.delete(res)) aborted += 1;
        });
        return;
      }
      if (reply.kind === 'error') {
        const type = errorTypeFor(provider, reply.status);
        sendError(res, provider, reply.status, type, reply.message ?? `Scripted ${reply.status}.`, reply.headers ?? {});
        return;
      }
      sendJson(
        res,
        200,
        provider === 'anthropic' ? anthropicMessage(body, reply, sent, id) : openAiCompletion(body, reply, sent, id),
      );
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal(500, 'api_error', String(error));
      if (refusal.status !== 401 && refusal.status !== 404)
        rejections.push({ status: refusal.status, message: refusal.message });
      sendError(res, provider ?? 'anthropic', refusal.status, refusal.errorType, refusal.message, {}, refusal.extra);
    }
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: (provider) => (provider === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`),
    requests,
    rejections,
    abortedRequests: () => aborted,
    pendingRequests: () => hanging.size,
    stop: async () => {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function checkAuth(provider: ScriptedProvider, req: IncomingMessage, apiKey: string): void {
  if (provider === 'anthropic') {
    // x-api-key, or (API version 2026-10-21, SDK 1.x) the key as a bearer token: the API takes both.
    const auth = req.headers.authorization ?? '';
    const bearer = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : null;
    const key = req.headers['x-api-key'];
    if (key !== undefined ? key !== apiKey : bearer !== apiKey) {
      throw new Refusal(401, 'authentication_error', key !== undefined ? 'invalid x-api-key' : 'Invalid bearer token');
    }
    const version = req.headers['anthropic-version'];
    if (typeof version !== 'string')
      throw new Refusal(400, 'invalid_request_error', 'anthropic-version: header is required');
    if (!ANTHROPIC_VERSIONS.includes(version))
      throw new Refusal(400, 'invalid_request_error', `anthropic-version: unknown version '${version}'`);
    return;
  }
  const auth = req.headers.authorization ?? '';
  const given = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
  if (given !== apiKey) {
    // As OpenAI does: the key it was given, masked in the middle.
    const masked = given.length > 8 ? `${given.slice(0, 3)}${'*'.repeat(given.length - 7)}${given.slice(-4)}` : given;
    throw new Refusal(
      401,
      'invalid_request_error',
      `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      {
        code: 'invalid_api_key',
      },
    );
  }
}

async function readJson(req: IncomingMessage): Promise<Json> {
  if (!(req.headers['content-type'] ?? '').includes('application/json'))
    throw new Refusal(400, 'invalid_request_error', 'Content-Type must be application/json.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new Refusal(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refusal(400, 'invalid_request_error', 'The request body is not valid JSON.');
  }
  if (!isObject(body)) throw new Refusal(400, 'invalid_request_error', 'The request body must be a JSON object.');
  return body;
}

function invalid(message: string): Refusal {
  return new Refusal(400, 'invalid_request_error', message);
}

function blocksOf(message: Json): Json[] {
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalid('messages: content must be a string or an array of content blocks.');
  return content.map((block, i) => {
    if (!isObject(block) || typeof block.type !== 'string')
      throw invalid(`messages: content.${i}: a content block needs a type.`);
    return block;
  });
}

function checkAnthropic(body: Json, sent: ReadonlyMap<string, SentCall>, version: string): SeenRequest {
  if (typeof body.model !== 'string' || body.model === '') throw invalid('model: Field required');
  const modern = version === '2026-10-21';
  // API version 2026-10-21 removed the sampling parameters: sent at all, even at their defaults, they are a 400.
  for (const removed of ['temperature', 'top_p', 'top_k']) {
    if (modern && removed in body)
      throw invalid(`${removed}: this parameter is not supported in API version 2026-10-21`);
  }
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)
    throw invalid('max_tokens: Field required (a positive integer)');
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
    throw invalid('system: must be a string or text blocks');
  const toolNames: string[] = [];
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) throw invalid('tools: must be an array');
    for (const [i, tool] of body.tools.entries()) {
      if (!isObject(tool) || typeof tool.name !== 'string' || !ANTHROPIC_TOOL_NAME.test(tool.name))
        throw invalid(`tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
      if (!isObject(tool.input_schema) || tool.input_schema.type !== 'object')
        throw invalid(`tools.${i}.input_schema.type: Input should be 'object'`);
      if (toolNames.includes(tool.name)) throw invalid('tools: Tool names must be unique.');
      toolNames.push(tool.name);
    }
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages: at least one message is required');
  const parsed = messages.map((message, i) => {
    const roles = modern ? ['user', 'assistant', 'system'] : ['user', 'assistant'];
    if (!isObject(message) || typeof message.role !== 'string' || !roles.includes(message.role))
      throw invalid(`messages.${i}.role: Input should be ${roles.map((r) => `'${r}'`).join(' or ')}`);
    const blocks = blocksOf(message);
    if (
      modern &&
      message.role === 'user' &&
      blocks.some((b) => b.type === 'text' && Array.isArray(b.citations) && b.citations.length > 0)
    ) {
      throw invalid(`messages.${i}: text blocks in user messages may not carry citations in API version 2026-10-21`);
    }
    if (modern && message.role === 'assistant' && blocks.some((b) => b.type === 'document'))
      throw invalid(`messages.${i}: document blocks may not be placed in assistant messages`);
    if (blocks.length === 0)
      throw invalid(
        `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      );
    for (const block of blocks)
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text === ''))
        throw invalid(`messages.${i}: text content blocks must be non-empty`);
    return { role: message.role, blocks };
  });
  if (parsed.find((m) => m.role !== 'system')?.role !== 'user')
    throw invalid('messages: the first message must use the "user" role');
  let toolResults: SeenRequest['toolResults'] = [];
  for (const [i, message] of parsed.entries()) {
    const uses = message.role === 'assistant' ? message.blocks.filter((b) => b.type === 'tool_use') : [];
    for (const use of uses) {
      const prior = typeof use.id === 'string' ? sent.get(use.id) : undefined;
      if (!prior || prior.name !== use.name || JSON.stringify(prior.input) !== JSON.stringify(use.input)) {
        throw invalid(
          `messages.${i}: the tool_use ${String(use.id)} is not the one this server sent (scripted server: history must be replayed as sent)`,
        );
      }
    }
    const results = message.role === 'user' ? message.blocks.filter((b) => b.type === 'tool_result') : [];
    const previous = parsed[i - 1];
    const previousUses =
      previous?.role === 'assistant' ? previous.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    for (const result of results) {
      if (!previousUses.includes(result.tool_use_id)) {
        throw invalid(
          `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(result.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
      if (result.content !== undefined && typeof result.content !== 'string' && !Array.isArray(result.content))
        throw invalid(`messages.${i}: tool_result content must be a string or blocks`);
    }
    const firstOther = message.blocks.findIndex((b) => b.type !== 'tool_result');
    if (firstOther !== -1 && message.blocks.slice(firstOther).some((b) => b.type === 'tool_result')) {
      throw invalid(`messages.${i}: tool_result blocks must come first in the content, before any other block`);
    }
    if (uses.length > 0) {
      const next = parsed[i + 1];
      const answered =
        next?.role === 'user' ? next.blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [];
      const missing = uses.map((u) => u.id).filter((useId) => !answered.includes(useId));
      if (missing.length > 0) {
        throw invalid(
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
    if (i === parsed.length - 1) {
      toolResults = results.map((r) => ({
        id: String(r.tool_use_id),
        content: typeof r.content === 'string' ? r.content : JSON.stringify(r.content ?? ''),
        isError: typeof r.is_error === 'boolean' ? r.is_error : null,
      }));
    }
  }
  return { provider: 'anthropic', body, toolResults, toolNames };
}

function checkOpenAi(body: Json, sent: ReadonlyMap<string, SentCall>): SeenRequest {
  if (typeof body.model !== 'string' || body.model === '') throw invalid('you must provide a model parameter');
  const toolNames: string[] = [];
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools)) throw invalid("Invalid type for 'tools': expected an array.");
    for (const [i, tool] of body.tools.entries()) {
      const fn = isObject(tool) && tool.type === 'function' && isObject(tool.function) ? tool.function : null;
      if (!fn || typeof fn.name !== 'string' || !OPENAI_TOOL_NAME.test(fn.name))
        throw invalid(
          `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        );
      if (fn.parameters !== undefined && (!isObject(fn.parameters) || fn.parameters.type !== 'object'))
        throw invalid(`Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"'.`);
      toolNames.push(fn.name);
    }
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid("Invalid 'messages': empty array. Expected an array with minimum length 1.");
  let open: string[] = [];
  let toolResults: { id: string; content: string; isError: null }[] = [];
  for (const [i, message] of messages.entries()) {
    if (!isObject(message) || typeof message.role !== 'string')
      throw invalid(`Invalid 'messages[${i}]': a message needs a role.`);
    if (message.role !== 'tool' && open.length > 0) {
      throw invalid(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
      );
    }
    if (message.role !== 'tool') toolResults = [];
    switch (message.role) {
      case 'system':
      case 'developer':
      case 'user':
        if (typeof message.content !== 'string' && !Array.isArray(message.content))
          throw invalid(`Invalid 'messages[${i}].content': expected a string or an array.`);
        break;
      case 'assistant': {
        const calls = message.tool_calls;
        if (calls === undefined) {
          if (typeof message.content !== 'string')
            throw invalid(`Invalid 'messages[${i}].content': content is required unless tool_calls are given.`);
          break;
        }
        if (!Array.isArray(calls) || calls.length === 0)
          throw invalid(`Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1.`);
        if (message.content !== null && message.content !== undefined && typeof message.content !== 'string')
          throw invalid(`Invalid 'messages[${i}].content'.`);
        for (const call of calls) {
          const fn = isObject(call) && call.type === 'function' && isObject(call.function) ? call.function : null;
          if (!fn || typeof call.id !== 'string' || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
            throw invalid(
              `Invalid 'messages[${i}].tool_calls': each needs id, type 'function' and function {name, arguments: string}.`,
            );
          }
          const prior = sent.get(call.id);
          if (!prior || prior.name !== fn.name || prior.rawArguments !== fn.arguments) {
            throw invalid(
              `messages[${i}]: the tool call ${call.id} is not the one this server sent (scripted server: history must be replayed as sent)`,
            );
          }
        }
        open = calls.map((call) => (call as Json).id as string);
        break;
      }
      case 'tool': {
        if (typeof message.tool_call_id !== 'string' || !open.includes(message.tool_call_id)) {
          throw invalid(
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          );
        }
        if (typeof message.content !== 'string' && !Array.isArray(message.content))
          throw invalid(`Invalid 'messages[${i}].content': expected a string or an array.`);
        open = open.filter((o) => o !== message.tool_call_id);
        toolResults.push({
          id: message.tool_call_id,
          content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
          isError: null,
        });
        break;
      }
      default:
        throw invalid(
          `Invalid value: '${message.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`,
        );
    }
  }
  if (open.length > 0) {
    throw invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(', ')}`,
    );
  }
  return { provider: 'openai', body, toolResults, toolNames };
}

function anthropicMessage(
  body: Json,
  reply: Extract<ScriptedReply, { kind: 'tools' | 'text' }>,
  sent: Map<string, SentCall>,
  id: (p: string) => string,
): Json {
  const content: Json[] = [];
  if (reply.text !== undefined && reply.text !== '') content.push({ type: 'text', text: reply.text, citations: null });
  if (reply.kind === 'tools') {
    for (const call of reply.calls) {
      const useId = id('toolu_');
      const input = call.input ?? {};
      sent.set(useId, { name: call.name, input, rawArguments: JSON.stringify(input) });
      content.push({ type: 'tool_use', id: useId, name: call.name, input });
    }
  }
  const stop = reply.kind === 'tools' ? 'tool_use' : (reply.stop ?? 'end_turn');
  return {
    id: id('msg_'),
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function openAiCompletion(
  body: Json,
  reply: Extract<ScriptedReply, { kind: 'tools' | 'text' }>,
  sent: Map<string, SentCall>,
  id: (p: string) => string,
): Json {
  const message: Json = { role: 'assistant', content: reply.text ?? null, refusal: null, annotations: [] };
  let finish = reply.kind === 'tools' ? 'tool_calls' : reply.stop === 'max_tokens' ? 'length' : 'stop';
  if (reply.kind === 'text' && reply.stop === 'refusal') {
    message.content = null;
    message.refusal = reply.text;
    finish = 'stop';
  }
  if (reply.kind === 'tools') {
    message.tool_calls = reply.calls.map((call) => {
      const callId = id('call_');
      const rawArguments = call.rawArguments ?? JSON.stringify(call.input ?? {});
      sent.set(callId, { name: call.name, input: call.input ?? {}, rawArguments });
      return { id: callId, type: 'function', function: { name: call.name, arguments: rawArguments } };
    });
  }
  return {
    id: id('chatcmpl-'),
    object: 'chat.completion',
    created: 1_764_633_600,
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    system_fingerprint: null,
  };
}

function errorTypeFor(provider: ScriptedProvider, status: number): string {
  if (provider === 'openai')
    return status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  if (status === 401) return 'authentication_error';
  if (status === 404) return 'not_found_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

function sendError(
  res: ServerResponse,
  provider: ScriptedProvider,
  status: number,
  type: string,
  message: string,
  headers: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, unknown>> = {},
): void {
  const body =
    provider === 'anthropic'
      ? { type: 'error', error: { type, message } }
      : { error: { message, type, param: null, code: extra.code ?? null } };
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  sendJson(res, status, body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': `req_scripted_${Date.now()}`,
  });
  res.end(text);
}
