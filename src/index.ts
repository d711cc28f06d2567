#!/usr/bin/env node
/**
 * The `android-mcp-harness` bin: a small dispatcher. With no subcommand it serves MCP over
 * stdio, and then stdout carries nothing but JSON-RPC; everything human goes to stderr.
 * Other parts add their subcommands to `commands`.
 */
import { ConfigError, loadConfig, type HarnessConfig } from './config.js';
import { createContainer } from './container.js';
import { packageVersion } from './wiring/packageVersion.js';
import { StdioJsonRpcTransport } from './transports/stdio/StdioJsonRpcTransport.js';
import { StdioRevisions } from './transports/stdio/stdioRevisions.js';
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from './transports/http/listenAddress.js';
import { parseToolsets, TOOLSET_CHOICES, ToolsetsError } from './domain/toolsets.js';

/** A subcommand: receives the arguments after its name, resolves to an exit code. */
type Command = (args: readonly string[]) => Promise<number>;

/** Stops within this long after stdin closes or a signal arrives, whatever is still pending. */
const EXIT_DEADLINE_MS = 4_500;

const USAGE = `Usage: android-mcp-harness [command]

Commands:
  (none), serve    Run the MCP server over stdio (what MCP clients start).
    --toolsets LIST  Also offer these toolsets (comma-separated: ${TOOLSET_CHOICES.join(', ')});
                     core, the twelve tools, is always on. Overrides ANDROID_MCP_TOOLSETS.
    --http           Serve MCP over Streamable HTTP at /mcp instead of stdio (bearer token required).
    --port N         With --http: the port (default ${DEFAULT_HTTP_PORT}).
    --host ADDR      With --http: the address (default ${DEFAULT_HTTP_HOST}, loopback only); any other
                     address needs ANDROID_MCP_HTTP_TOKEN.
  doctor           Check everything a real run needs (adb, device, Appium, …) and say what to fix.
  flow FILE.json   Run a reference flow through the server over stdio; JSON report on stdout.
  trace view DIR   Write a trace's viewer page (DIR/index.html) and print its path.
  trace export DIR --format flow|wdio
                   Write a trace's actions as a flow file or a WebdriverIO test; print its path.
  cli VERB …       The command line for agents in a shell: one verb, one tool call, on a local
                   server started on first use (cli help).
  virtual-device   Run the virtual Android device (its own package, android-mcp-virtual-device) that
                   the real adb and Appium accept (--help).
  --help           Show this help.
  --version        Show the version.

Configuration is read from the environment: ANDROID_UDID, ANDROID_MCP_ALLOW_SERIALS, APPIUM_URL,
ANDROID_MCP_SESSION_IDLE_TIMEOUT, ANDROID_MCP_ACTION_TIMEOUT, ANDROID_MCP_CONNECT_TIMEOUT,
ANDROID_MCP_ARTIFACTS_DIR, ANDROID_MCP_LOG_LEVEL, ANDROID_MCP_APPIUM_CAPS, ANDROID_ADB_SERVER_PORT,
ANDROID_MCP_TOOLSETS, ANDROID_MCP_TRACE (off), ANDROID_MCP_TRACE_KEEP, ANDROID_MCP_TRACE_MAX_MB; over HTTP also ANDROID_MCP_HTTP_TOKEN, ANDROID_MCP_HTTP_ALLOWED_ORIGINS,
ANDROID_MCP_HTTP_ALLOWED_HOSTS.
`;

function stderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

interface ServeOptions {
  toolsets?: string;
  /** Set by --http: serve over Streamable HTTP on this address instead of stdio. */
  http?: { host: string; port: number };
}

/**
 * The serve options: `--toolsets LIST` (or `=LIST`), `--http`, `--port N`, `--host ADDR`;
 * anything else, or --port/--host without --http, is a usage error (a string saying which).
 */
function serveOptions(args: readonly string[]): ServeOptions | string {
  let toolsets: string | undefined;
  let http = false;
  let port: string | undefined;
  let host: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inline ?? (i + 1 < args.length ? args[(i += 1)] : undefined);
    if (flag === '--toolsets') toolsets = value();
    else if (flag === '--http' && inline === undefined) http = true;
    else if (flag === '--port') port = value();
    else if (flag === '--host') host = value();
    else return `serve does not take ${JSON.stringify(arg.slice(0, 64))}`;
    if (
      (flag === '--toolsets' && toolsets === undefined) ||
      (flag === '--port' && port === undefined) ||
      (flag === '--host' && host === undefined)
    ) {
      return `${flag} needs a value`;
    }
  }
  if (!http && (port !== undefined || host !== undefined)) return '--port and --host go with --http';
  const options: ServeOptions = toolsets === undefined ? {} : { toolsets };
  if (!http) return options;
  const portNumber = port === undefined ? DEFAULT_HTTP_PORT : Number(port);
  if (!/^\d{1,5}$/.test(port ?? String(DEFAULT_HTTP_PORT)) || portNumber > 65_535)
    return `--port takes a number from 0 to 65535 (got ${JSON.stringify((port ?? '').slice(0, 16))})`;
  options.http = { host: host ?? DEFAULT_HTTP_HOST, port: portNumber };
  return options;
}

/** Serves MCP over stdio until stdin closes, or over HTTP (--http), until a signal arrives; the UI sessions are closed first. */
async function serve(args: readonly string[] = []): Promise<number> {
  const options = serveOptions(args);
  if (typeof options === 'string') {
    stderr(`android-mcp-harness: ${options}`);
    process.stderr.write(USAGE);
    return 2;
  }
  // The flag wins over the environment; both go through the one parser.
  const env = options.toolsets === undefined ? process.env : { ...process.env, ANDROID_MCP_TOOLSETS: options.toolsets };
  let config: HarnessConfig;
  try {
    // The flag is checked under its own name first, so the error names what the user wrote.
    if (options.toolsets !== undefined) parseToolsets(options.toolsets, '--toolsets');
    config = loadConfig(env, (message) => stderr(`android-mcp-harness: ${message}`));
  } catch (error) {
    if (!(error instanceof ToolsetsError) && !(error instanceof ConfigError)) throw error;
    stderr(`android-mcp-harness: ${error.message}`);
    return 2;
  }
  const container = createContainer(config);
  const logger = container.deps.logger;

  let stopping = false;
  // Over HTTP: stop accepting requests before the sessions close under them.
  let beforeShutdown: () => Promise<void> = async () => undefined;
  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { reason });
    // Whatever hangs, the process is gone in time; unref so it never keeps us alive by itself.
    setTimeout(() => process.exit(code), EXIT_DEADLINE_MS).unref();
    beforeShutdown()
      .catch(() => undefined)
      .then(() => container.shutdown())
      .then(
        () => process.exit(code),
        (error: unknown) => {
          logger.error('shutdown failed', { cause: String(error) });
          process.exit(code);
        },
      );
  };

  // Last resort for the harness's own Appium: whatever path leads to exit, kill it by pid.
  process.once('exit', () => container.deps.appium.killNow());
  process.once('SIGINT', () => stop('SIGINT', 0));
  process.once('SIGTERM', () => stop('SIGTERM', 0));
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception', { cause: error.stack ?? String(error) });
    stop('uncaught exception', 1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection', {
      cause: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason),
    });
  });

  if (options.http) {
    container.traces.servedOver('http');
    // Over HTTP stdin means nothing (it may be /dev/null under a service manager): signals stop it.
    const { serveHttp, HttpSetupError } = await import('./transports/http/serveHttp.js');
    try {
      const { restMirrorFor } = await import('./rest/restMirror.js');
      const routes = [restMirrorFor(container.restMirror)];
      const running = await serveHttp({ ...options.http, env, harness: container.server, logger, say: stderr, routes });
      stderr(
        `android-mcp-harness: REST API at ${new URL('/devices', running.url).href} (OpenAPI: ${new URL('/openapi.json', running.url).href})`,
      );
      beforeShutdown = () => running.close();
    } catch (error) {
      if (!(error instanceof HttpSetupError)) throw error;
      stderr(`android-mcp-harness: ${error.message}`);
      await container.shutdown();
      return 2;
    }
    logger.info('serving MCP over Streamable HTTP', {
      version: packageVersion(),
      udid: config.udidExplicit ? config.udid : '(discovered per call)',
      toolsets: config.toolsets.join(','),
    });
    return new Promise<number>(() => undefined);
  }

  process.stdin.once('end', () => stop('stdin closed', 0));
  process.stdin.once('close', () => stop('stdin closed', 0));
  // Not the SDK's StdioServerTransport: it drops malformed lines without an answer and closes on a long one.
  // The first message picks the revision: 2025-era clients meet the v1 server as before, 2026-07-28 ones the v2 SDK.
  await new StdioRevisions(container.server, new StdioJsonRpcTransport()).start();
  logger.info('serving MCP over stdio', {
    version: packageVersion(),
    udid: config.udidExplicit ? config.udid : '(discovered per call)',
    toolsets: config.toolsets.join(','),
  });
  // Runs until stop() exits the process.
  return new Promise<number>(() => undefined);
}

const commands: Record<string, Command> = {
  serve: (args) => serve(args),
  doctor: async (args) => (await import('./doctor/cli.js')).doctorMain(args),
  flow: async (args) => (await import('./flow/cli.js')).flowMain(args),
  trace: async (args) => (await import('./trace/cli.js')).traceMain(args),
  cli: async (args) => (await import('./cli/agentCli.js')).cliMain(args),
  'virtual-device': async (args) => (await import('./virtualDeviceCommand.js')).runVirtualDevice(args),
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) return serve();
  if (name.startsWith('--toolsets') || name === '--http') return serve(argv);
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE); // stdout-ok: the CLI's intended output, not in server mode
    return 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${packageVersion()}\n`); // stdout-ok: the CLI's intended output, not in server mode
    return 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    stderr(`android-mcp-harness: unknown command ${JSON.stringify(name.slice(0, 64))}`);
    process.stderr.write(USAGE);
    return 2;
  }
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    stderr(`android-mcp-harness: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
