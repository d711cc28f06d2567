/**
 * The harness's HTTP server: node:http, loopback by default, with the guards of
 * requestGuards.ts in front of every route. Routes are a list, so the REST mirror and tasks can
 * sit beside `/mcp` on the same port, behind the same checks.
 *
 * Bounds, so that no client (slow, abandoned, flooding) holds more than its share:
 * - a request's headers must arrive within 10 s and the whole request within 30 s (slowloris);
 * - a body over `maxBodyBytes` is refused with 413 (by Content-Length before reading, else
 *   while reading, by the route);
 * - at most `maxInFlight` requests are served at once; more get 503 with Retry-After.
 * The device itself is never held by HTTP: a tool call takes the DeviceGate only once its body
 * is read and parsed, and gives it back when the call ends, whether or not the client still listens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../domain/ports.js';
import { BodyTooLarge } from './readBody.js';
import { checkBearer, checkHost, checkOrigin, type GuardPolicy, type Refusal } from './requestGuards.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_MAX_IN_FLIGHT = 32;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const CLOSE_GRACE_MS = 1_000;

/** One endpoint (or family of endpoints) on the server. */
export interface HttpRoute {
  matches(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * True for the MCP route: its refusals (401, 403, 413, 503) are JSON-RPC errors, which MCP clients
   * show. Every other path, the REST routes and unknown ones alike, is answered as REST answers:
   * `{ok: false, error: {code, message}}`, so the refusal's shape says nothing about which paths exist.
   */
  readonly speaksJsonRpc?: boolean;
}

export interface HttpServerOptions {
  readonly host: string;
  readonly port: number;
  readonly policy: GuardPolicy;
  readonly routes: readonly HttpRoute[];
  readonly logger: Logger;
  readonly maxBodyBytes?: number;
  readonly maxInFlight?: number;
}

/** What the server answered, by outcome; the reliability figures come from these. */
export interface HttpCounters {
  accepted: number;
  refused: Record<number, number>;
}

export class HarnessHttpServer {
  readonly counters: HttpCounters = { accepted: 0, refused: {} };
  private readonly server: Server;
  private readonly maxBodyBytes: number;
  private readonly maxInFlight: number;
  private inFlight = 0;

  constructor(private readonly options: HttpServerOptions) {
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      this.serve(req, res).catch((error: unknown) => {
        options.logger.warn('HTTP request failed', { cause: error instanceof Error ? error.message : String(error) });
        if (!res.headersSent) {
          const jsonRpc = this.routeOf(req)?.speaksJsonRpc === true;
          this.refuse(
            res,
            {
              status: 500,
              code: 'INTERNAL_ERROR',
              message: 'Internal error while serving the request; see the server log.',
            },
            jsonRpc,
          );
        } else res.destroy();
      });
    };
    this.server = createServer(
      {
        headersTimeout: HEADERS_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      },
      handler,
    );
    // `Expect: 100-continue` (curl with a large body): the checks run before the client is told to send it.
    this.server.on('checkContinue', handler);
    this.server.maxHeadersCount = 100;
  }

  /** Listens; resolves with the port actually bound (useful with port 0). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting and ends idle connections; requests still running get `graceMs` to answer. */
  close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    return new Promise((resolve) => {
      const force = setTimeout(() => this.server.closeAllConnections(), graceMs);
      force.unref();
      this.server.close(() => {
        clearTimeout(force);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { policy } = this.options;
    // The path only picks the refusal's shape; nothing of the request is read before the checks.
    const route = this.routeOf(req);
    const jsonRpc = route?.speaksJsonRpc === true;
    const refusal =
      checkHost(req.headers, policy) ?? checkOrigin(req.headers, policy) ?? checkBearer(req.headers, policy);
    if (refusal) return this.refuse(res, refusal, jsonRpc, req);
    if (!route) {
      return this.refuse(
        res,
        {
          status: 404,
          code: 'NOT_FOUND',
          message: 'Not found: MCP is served at /mcp, the REST API at /devices (GET /openapi.json describes it).',
        },
        jsonRpc,
        req,
      );
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (Number.isFinite(length) && length > this.maxBodyBytes) {
      return this.refuse(
        res,
        {
          status: 413,
          code: 'INVALID_ARGUMENT',
          message: `Payload too large: bodies are limited to ${this.maxBodyBytes} bytes.`,
        },
        jsonRpc,
        req,
      );
    }
    if (this.inFlight >= this.maxInFlight) {
      return this.refuse(
        res,
        {
          status: 503,
          code: 'SERVER_BUSY',
          message: `Busy: ${this.maxInFlight} requests are already being served; retry shortly.`,
          headers: { 'retry-after': '1' },
        },
        jsonRpc,
        req,
      );
    }
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    this.inFlight += 1;
    this.counters.accepted += 1;
    try {
      await route.handle(req, res);
    } catch (error) {
      // A chunked body that passed the bound while a route read it: refused here like a declared one,
      // with the rest of the body discarded so the client reads the 413.
      if (!(error instanceof BodyTooLarge) || res.headersSent) throw error;
      this.refuse(
        res,
        { status: 413, code: 'INVALID_ARGUMENT', message: `Payload too large: ${error.message}.` },
        jsonRpc,
        req,
      );
    } finally {
      this.inFlight -= 1;
    }
  }

  private routeOf(req: IncomingMessage): HttpRoute | undefined {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    return this.options.routes.find((candidate) => candidate.matches(pathname));
  }

  private count(status: number): void {
    this.counters.refused[status] = (this.counters.refused[status] ?? 0) + 1;
  }

  /**
   * A refusal, with the HTTP status that says why: on the MCP route a JSON-RPC error without id (MCP
   * clients show its message), elsewhere the REST refusal `{ok: false, error: {code, message}}`.
   * The request's body is never parsed, and the connection closes after it.
   * What the client is still sending is discarded, within a bound, before the socket closes: a
   * client that sends its whole body before reading the answer (Node's fetch) would otherwise see
   * EPIPE instead of the 413 or 401 when the socket closes under its write. So while a body is still
   * arriving, the answer waits for its end (Node ends the socket as soon as a `Connection: close`
   * answer is written). A client that asked `Expect: 100-continue` sends nothing more: it is answered at once.
   */
  private refuse(res: ServerResponse, refusal: Refusal, jsonRpc: boolean, req?: IncomingMessage): void {
    const draining = req !== undefined && !req.complete && req.headers.expect?.toLowerCase() !== '100-continue';
    this.count(refusal.status);
    this.options.logger.info('HTTP request refused', {
      status: refusal.status,
      method: (req?.method ?? '').slice(0, 16),
      ...(req ? loggedTarget(req, this.routeOf(req) !== undefined) : {}),
    });
    const body = jsonRpc
      ? JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: refusal.message } })
      : JSON.stringify({ ok: false, error: { code: refusal.code, message: refusal.message } });
    const answer = (): void => {
      res.writeHead(refusal.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
        ...refusal.headers,
      });
      res.end(body);
    };
    if (draining) discardBody(req, answer);
    else answer();
  }
}

/**
 * What the log says of a request's target: the route it names (its first path segment, when a route
 * matches: one of a fixed few), never the rest of the path nor anything of the query, whose values
 * (`?token=`, `?access_token=`, `?sig=`) and even names may be credentials a client put in the URL.
 * Only how many query parameters there were and how long the target was, to tell requests apart.
 */
export function loggedTarget(
  req: IncomingMessage,
  routed: boolean,
): { route: string; query_params: number; target_length: number } {
  const raw = req.url ?? '';
  const url = URL.parse(raw, 'http://localhost');
  const first = /^\/[^/]*/.exec(url?.pathname ?? '')?.[0] ?? '/';
  return {
    route: routed ? first.slice(0, 32) : '(no route)',
    query_params: url ? [...url.searchParams.keys()].length : 0,
    target_length: raw.length,
  };
}

/** How much of a refused request's body is discarded, and for how long, before its socket is cut. */
const DISCARD_MAX_BYTES = 8 * 1024 * 1024;
const DISCARD_MAX_MS = 5_000;

/** Reads and drops a refused request's body, then answers; cuts the socket past the bounds. */
function discardBody(req: IncomingMessage, answer: () => void): void {
  let bytes = 0;
  let answered = false;
  const answerOnce = (): void => {
    if (answered) return;
    answered = true;
    answer();
  };
  // Past the bounds the answer goes out at once; its `Connection: close` ends the socket under
  // a client still sending, which may then see the socket closed rather than the answer.
  const cut = (): void => {
    clearTimeout(timer);
    answerOnce();
  };
  const timer = setTimeout(cut, DISCARD_MAX_MS);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DISCARD_MAX_BYTES) cut();
  });
  req.once('end', () => {
    clearTimeout(timer);
    answerOnce();
  });
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
