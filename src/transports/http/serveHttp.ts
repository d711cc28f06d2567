/**
 * `serve --http`: builds the HTTP server around the container's MCP server and starts it.
 * Setup problems (a token missing for a non-loopback address, a token file others can read)
 * throw HttpSetupError with what to do; the CLI prints it and exits 2.
 */
import type { Logger } from '../../domain/ports.js';
import type { HarnessMcpServer } from '../../mcp/HarnessMcpServer.js';
import { HarnessHttpServer, DEFAULT_MAX_BODY_BYTES, type HttpRoute } from './HttpServer.js';
import { resolveHttpToken, HttpTokenError } from './httpToken.js';
import { isLoopbackHost, urlHost } from './listenAddress.js';
import { MCP_PATH, mcpRoute } from './mcpRoute.js';

export class HttpSetupError extends Error {}

export interface ServeHttpOptions {
  /** `--host` (default loopback): any other address needs ANDROID_MCP_HTTP_TOKEN. */
  readonly host: string;
  readonly port: number;
  readonly env: NodeJS.ProcessEnv;
  readonly harness: HarnessMcpServer;
  readonly logger: Logger;
  /** Served beside `/mcp`, behind the same checks (the REST mirror, src/rest/). */
  readonly routes?: readonly HttpRoute[];
  /** Human lines (the token file's path, the URL); stderr in the CLI. */
  readonly say: (line: string) => void;
}

export interface RunningHttp {
  readonly url: string;
  readonly server: HarnessHttpServer;
  close(): Promise<void>;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

export async function serveHttp(options: ServeHttpOptions): Promise<RunningHttp> {
  const { host, port, env, say } = options;
  const loopback = isLoopbackHost(host);
  if (!loopback && !env.ANDROID_MCP_HTTP_TOKEN) {
    throw new HttpSetupError(
      `--host ${host} opens the port to other machines: set ANDROID_MCP_HTTP_TOKEN to a secret of your own first (e.g. \`export ANDROID_MCP_HTTP_TOKEN=$(openssl rand -hex 24)\`), or leave --host out to stay on loopback.`,
    );
  }
  let resolved;
  try {
    resolved = resolveHttpToken(env);
  } catch (error) {
    if (error instanceof HttpTokenError) throw new HttpSetupError(error.message);
    throw error;
  }
  if (resolved.source.kind === 'file') {
    say(
      resolved.source.created
        ? `android-mcp-harness: generated the HTTP bearer token in ${resolved.source.path} (readable only by you); clients send it as "Authorization: Bearer <token>".`
        : `android-mcp-harness: HTTP bearer token: ${resolved.source.path}`,
    );
  }
  const allowedHostnames = list(env.ANDROID_MCP_HTTP_ALLOWED_HOSTS).map((name) => name.toLowerCase());
  if (!loopback) allowedHostnames.push(urlHost(host).toLowerCase());
  const route = mcpRoute(options.harness, options.logger, DEFAULT_MAX_BODY_BYTES);
  const server = new HarnessHttpServer({
    host,
    port,
    policy: { token: resolved.token, allowedHostnames, allowedOrigins: list(env.ANDROID_MCP_HTTP_ALLOWED_ORIGINS) },
    routes: [route, ...(options.routes ?? [])],
    logger: options.logger,
  });
  let bound: number;
  try {
    bound = await server.listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HttpSetupError(
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use: choose another with --port N.`
        : `could not listen on ${host}:${port}: ${(error as Error).message}.`,
    );
  }
  const url = `http://${urlHost(host)}:${bound}${MCP_PATH}`;
  say(`android-mcp-harness: serving MCP over Streamable HTTP at ${url}`);
  return {
    url,
    server,
    close: async () => {
      await route.close().catch(() => undefined);
      await server.close();
    },
  };
}
