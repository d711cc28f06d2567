/**
 * From an SDK's error to the loop's ModelError. Both official SDKs have the same family (APIError
 * with a status, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError), so one mapping
 * serves both, given the classes. The endpoint's own message is kept (it says "model not found",
 * "credit balance too low"), bounded, with the key cut out: OpenAI's 401 quotes a masked key
 * ("Incorrect API key provided: sk-ab***yz"), and a proxy may quote more.
 */
import { ModelAborted, ModelError, type ModelErrorKind } from '../../application/agent/ModelPort.js';
import { sanitizeMessage } from '../../domain/sanitize.js';

const MAX_UPSTREAM_MESSAGE = 300;
/** Anything shaped like a key or a bearer token, masked or not (`sk-…`, `sk-ant-…`, `Bearer …`). */
const KEY_LIKE = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{3,}|\bBearer\s+\S+/g;

export interface SdkErrorClasses {
  readonly APIError: abstract new (
    ...args: never[]
  ) => Error & { readonly status: number | undefined; readonly error: unknown };
  readonly APIConnectionError: abstract new (...args: never[]) => Error;
  readonly APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  readonly APIUserAbortError: abstract new (...args: never[]) => Error;
}

/** `text` with the key and anything key-like replaced, paths hidden, bounded. */
export function withoutSecrets(text: string, apiKey: string): string {
  let out = apiKey.length > 0 ? text.split(apiKey).join('[key]') : text;
  out = out.replace(KEY_LIKE, '[key]');
  out = sanitizeMessage(out).replace(/\s+/g, ' ').trim();
  return out.length > MAX_UPSTREAM_MESSAGE ? `${out.slice(0, MAX_UPSTREAM_MESSAGE - 1)}…` : out;
}

export function toModelError(error: unknown, classes: SdkErrorClasses, apiKey: string, signal: AbortSignal): Error {
  if (error instanceof classes.APIUserAbortError || signal.aborted) return new ModelAborted();
  if (error instanceof classes.APIConnectionTimeoutError) {
    return new ModelError(
      'timeout',
      null,
      'The model endpoint did not answer in time (the SDK retried); check the endpoint, or try again later.',
    );
  }
  if (error instanceof classes.APIConnectionError) {
    return new ModelError(
      'connection',
      null,
      'The model endpoint could not be reached; check ANDROID_MCP_MODEL_BASE_URL and the network.',
    );
  }
  if (error instanceof classes.APIError && typeof error.status === 'number') {
    return statusError(error.status, upstreamMessage(error.error), apiKey);
  }
  return new ModelError(
    'bad_response',
    null,
    `The model endpoint's answer could not be read: ${withoutSecrets(String(error), apiKey)}`,
  );
}

function statusError(status: number, upstream: string | null, apiKey: string): ModelError {
  const said = upstream ? ` The endpoint said: ${withoutSecrets(upstream, apiKey)}` : '';
  const [kind, advice] = classify(status);
  return new ModelError(kind, status, `${advice}${said}`);
}

function classify(status: number): readonly [ModelErrorKind, string] {
  if (status === 401 || status === 403)
    return [
      'auth',
      "The model endpoint refused the API key; check ANDROID_MCP_MODEL_API_KEY (or the provider's own key variable).",
    ];
  if (status === 429)
    return ['rate_limited', 'The model endpoint is rate limiting this key; try again later or lower the load.'];
  if (status === 529 || status === 503) return ['overloaded', 'The model endpoint is overloaded; try again later.'];
  if (status === 404)
    return [
      'not_found',
      'The model endpoint does not know this model or route; check ANDROID_MCP_MODEL and ANDROID_MCP_MODEL_BASE_URL.',
    ];
  if (status >= 500) return ['server', 'The model endpoint failed on its side; try again later.'];
  return ['bad_request', "The model endpoint refused the request; check ANDROID_MCP_MODEL and the endpoint's limits."];
}

/**
 * The message in either error body: Anthropic `{type:"error", error:{type, message}}` (the SDK keeps
 * it whole), OpenAI `{message, type}` (the SDK keeps `error`).
 */
function upstreamMessage(body: unknown): string | null {
  const record = asRecord(body);
  if (!record) return typeof body === 'string' && body.trim() !== '' ? body : null;
  const inner = asRecord(record.error);
  const message = inner?.message ?? record.message;
  return typeof message === 'string' && message.trim() !== '' ? message : null;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
