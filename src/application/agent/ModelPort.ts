/**
 * The port between the agent loop and a language model, for goal tasks. It speaks in turns, not in
 * any vendor's wire format: the adapters (src/infrastructure/model/) translate to the Anthropic
 * Messages API or an OpenAI-compatible chat completions endpoint. The loop keeps the conversation
 * and sends it whole each time (the APIs are stateless), so an adapter holds no state but its client.
 */

/** A tool as the model is shown it: name, what it does, the JSON Schema of its arguments (an object). */
export interface ModelToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** One tool call the model asked for. */
export interface ModelToolCall {
  /** The id the API gave the call; its result must name it. */
  readonly id: string;
  readonly name: string;
  /** The arguments when they are a JSON object; null when the model sent anything else (not JSON, an array…). */
  readonly input: Readonly<Record<string, unknown>> | null;
  /** The arguments as the model sent them (JSON text), replayed as is: some APIs compare it. */
  readonly rawInput: string;
}

export interface ModelToolResult {
  readonly callId: string;
  /** What the model reads: the compact envelope (compactEnvelope.ts). */
  readonly content: string;
  readonly isError: boolean;
}

export type ModelMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly calls: readonly ModelToolCall[] }
  | { readonly role: 'tool_results'; readonly results: readonly ModelToolResult[] };

/**
 * Why the model stopped, in the loop's terms: `tool_use` (it wants its calls' results),
 * `end_turn` (it is done talking), `max_tokens` (cut off), `refusal` (a safety stop), `other`.
 */
export type ModelStop = 'tool_use' | 'end_turn' | 'max_tokens' | 'refusal' | 'other';

export interface ModelTurn {
  readonly text: string;
  readonly calls: readonly ModelToolCall[];
  readonly stop: ModelStop;
}

export interface ModelRequest {
  readonly system: string;
  readonly tools: readonly ModelToolSpec[];
  readonly messages: readonly ModelMessage[];
  /** Aborts the HTTP request in flight (cancel, time limit): nothing keeps running after it. */
  readonly signal: AbortSignal;
}

export interface ModelPort {
  /** Which API and model, for logs and summaries (never the key). */
  readonly label: string;
  next(request: ModelRequest): Promise<ModelTurn>;
}

/**
 * What went wrong talking to the model, typed so the loop (and the task's report) can say what to
 * do next: `auth` (the key), `rate_limited` and `overloaded` (later), `server`, `bad_request` and
 * `not_found` (the configuration: model name, base URL), `connection` and `timeout` (the network),
 * `bad_response` (the endpoint answered something that is not the API). Adapters build the message
 * without the API key (they redact it from anything the endpoint echoes).
 */
export type ModelErrorKind =
  | 'auth'
  | 'rate_limited'
  | 'overloaded'
  | 'server'
  | 'bad_request'
  | 'not_found'
  | 'connection'
  | 'timeout'
  | 'bad_response';

export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly kind: ModelErrorKind,
    /** The HTTP status when the endpoint answered one. */
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown by an adapter when the request was aborted through its signal (the loop knows why). */
export class ModelAborted extends Error {
  override readonly name = 'ModelAborted';
  constructor() {
    super('the model request was aborted');
  }
}
