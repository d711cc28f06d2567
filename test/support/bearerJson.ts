/**
 * One JSON request to the harness's HTTP server with its bearer token: the REST mirror's and the
 * task routes' tests all call it the same way. A string body is sent as it is (to test malformed JSON).
 */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
}

export async function bearerJson(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonAnswer> {
  const init: RequestInit = {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, headers: response.headers, json: await response.json() };
}
