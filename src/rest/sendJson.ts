import type { ServerResponse } from 'node:http';

/** One JSON answer; `text` when the exact bytes are already made (an envelope, as tools/call's text block). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** 405 with `Allow`, as REST refusals are written: `{ok: false, error: {code, message}}`. */
export function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendJson(
    res,
    405,
    { ok: false, error: { code: 'INVALID_ARGUMENT', message: `Method not allowed: use ${allow}.` } },
    { allow },
  );
}
