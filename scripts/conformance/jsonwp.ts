/**
 * The JSONWP-era shapes of old UiAutomator2 servers (1.x to 3.x) and the Appium versions that
 * drove them, read so that the replay compares what the servers meant rather than how they were
 * logged:
 *
 * - Appium 1.x logged some bodies as a JSON string (`with body: "{\"strategy\":…}"`, `Got response
 *   with status 200: "{\"sessionId\":…}"`): the text is the body, so it is parsed once more.
 * - Those servers answered `POST /session` with `{"sessionId": …, "status": 0, "value": "Created
 *   Session"}` and `DELETE /session` with `"value": "Session deleted"`; the current server answers
 *   the session's capabilities and `null`. Both say the same thing, so these answers are compared
 *   by what they are (a session was made, a session was ended), not by the type of `value`.
 * - Their element references carried only the JSONWP key `ELEMENT`; the current server adds the
 *   W3C key beside it (the driver reads either).
 */
import type { Exchange } from './corpus.js';

export const W3C_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** A body logged as a JSON string is that JSON; anything else stays as logged. */
export function parseLoggedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const text = body.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return body;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return body;
  }
}

/** The exchange with its bodies as the server sent them. */
export function normaliseExchange(e: Exchange): Exchange {
  return { ...e, requestBody: parseLoggedBody(e.requestBody), responseBody: parseLoggedBody(e.responseBody) };
}

/** A JSONWP answer: a numeric `status` beside `value` (0 for success). */
export function isJsonwpAnswer(body: unknown): boolean {
  return body !== null && typeof body === 'object' && typeof (body as { status?: unknown }).status === 'number';
}

/**
 * What a JSONWP session answer says, or null when the exchange is no such answer: `created` for a
 * 200 to `POST /session` whose value is a message ("Created Session"), `deleted` for a 200 to
 * `DELETE /session/:id` whose value is one ("Session deleted").
 */
export function jsonwpSessionAnswer(e: Exchange): 'created' | 'deleted' | null {
  const value = (e.responseBody as { value?: unknown } | null)?.value;
  if (e.status !== 200 || typeof value !== 'string') return null;
  if (e.method === 'POST' && e.path === '/session') return 'created';
  if (e.method === 'DELETE' && e.path === '/session/:sessionId') return 'deleted';
  return null;
}

/** Whether the replay's answer says what a JSONWP session answer said. */
export function sameSessionAnswer(
  kind: 'created' | 'deleted',
  reply: { status: number; body: { sessionId?: unknown; value?: unknown } },
): boolean {
  if (reply.status !== 200) return false;
  if (kind === 'deleted') return true;
  const inValue = (reply.body.value as { sessionId?: unknown } | null)?.sessionId;
  return typeof (reply.body.sessionId ?? inValue) === 'string';
}

/** A shape with each W3C element key dropped beside `ELEMENT`, as a JSONWP server answered it. */
export function jsonwpElementShape(shape: string): string {
  return shape.replaceAll(`ELEMENT:string,${W3C_ELEMENT}:string`, 'ELEMENT:string');
}
