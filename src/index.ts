#!/usr/bin/env node
/**
 * The `android-mcp-harness` bin: a small dispatcher. With no subcommand it serves MCP over
 * stdio, and then stdout carries nothing but JSON-RPC; everything human goes to stderr.
 * Other parts add their subcommands to `commands`.
 */
import { loadConfig, type HarnessConfig } from './config.js';
import { createContainer, packageVersion } from './container.js';
import { StdioJsonRpcTransport } from './mcp/StdioJsonRpcTransport.js';
import { parseToolsets, TOOLSET_CHOICES, ToolsetsError } from './mcp/toolsets.js';

/** A subcommand: receives the arguments after its name, resolves to an exit code. */
type Command = (args: readonly string[]) => Promise<number>;

/** Stops within this long after stdin closes or a signal arrives, whatever is still pending. */
const EXIT_DEADLINE_MS = 4_500;

const USAGE = `Usage: android-mcp-harness [command]

Commands:
  (none), serve    Run the MCP server over stdio (what MCP clients start).
    --toolsets LIST  Also offer these toolsets (comma-separated: ${TOOLSET_CHOICES.join(', ')});
                     core, the twelve tools, is always on. Overrides ANDROID_MCP_TOOLSETS.
  doctor           Check everything a real run needs (adb, device, Appium, …) and say what to fix.
  flow FILE.json   Run a reference flow through the server over stdio; JSON report on stdout.
  virtual-device   Run a virtual Android device that the real adb and Appium accept (--help).
  --help           Show this help.
  --version        Show the version.

Configuration is read from the environment: ANDROID_UDID, ANDROID_MCP_ALLOW_SERIALS, APPIUM_URL,
ANDROID_MCP_FLOW_IDLE_TIMEOUT, ANDROID_MCP_ACTION_TIMEOUT, ANDROID_MCP_CONNECT_TIMEOUT,
ANDROID_MCP_ARTIFACTS_DIR, ANDROID_MCP_LOG_LEVEL, ANDROID_MCP_APPIUM_CAPS, ANDROID_ADB_SERVER_PORT,
ANDROID_MCP_TOOLSETS.
`;

function stderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The serve options: `--toolsets LIST` or `--toolsets=LIST`; anything else is a usage error (null). */
function serveOptions(args: readonly string[]): { toolsets?: string } | null {
  let toolsets: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--toolsets' && i + 1 < args.length) toolsets = args[(i += 1)];
    else if (arg.startsWith('--toolsets=')) toolsets = arg.slice('--toolsets='.length);
    else return null;
  }
  return toolsets === undefined ? {} : { toolsets };
}

/** Serves MCP over stdio until stdin closes or a signal arrives; the flow is closed first. */
async function serve(args: readonly string[] = []): Promise<number> {
  const options = serveOptions(args);
  if (!options) {
    stderr(`android-mcp-harness: serve takes only --toolsets LIST (got ${JSON.stringify(args.join(' ').slice(0, 64))})`);
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
    if (!(error instanceof ToolsetsError)) throw error;
    stderr(`android-mcp-harness: ${error.message}`);
    return 2;
  }
  const container = createContainer(config);
  const logger = container.deps.logger;

  let stopping = false;
  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { reason });
    // Whatever hangs, the process is gone in time; unref so it never keeps us alive by itself.
    setTimeout(() => process.exit(code), EXIT_DEADLINE_MS).unref();
    container.shutdown().then(
      () => process.exit(code),
      (error: unknown) => {
        logger.error('shutdown failed', { cause: String(error) });
        process.exit(code);
      },
    );
  };

  // Last resort for the harness's own Appium: whatever path leads to exit, kill it by pid.
  process.once('exit', () => container.deps.appium.killNow());
  process.stdin.once('end', () => stop('stdin closed', 0));
  process.stdin.once('close', () => stop('stdin closed', 0));
  process.once('SIGINT', () => stop('SIGINT', 0));
  process.once('SIGTERM', () => stop('SIGTERM', 0));
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception', { cause: error.stack ?? String(error) });
    stop('uncaught exception', 1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection', { cause: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) });
  });

  // Not the SDK's StdioServerTransport: it drops malformed lines without an answer and closes on a long one.
  await container.server.connect(new StdioJsonRpcTransport());
  logger.info('serving MCP over stdio', { version: packageVersion(), udid: config.udid, toolsets: config.toolsets.join(',') });
  // Runs until stop() exits the process.
  return new Promise<number>(() => undefined);
}

const commands: Record<string, Command> = {
  serve: (args) => serve(args),
  doctor: async (args) => (await import('./doctor/cli.js')).doctorMain(args),
  flow: async (args) => (await import('./flow/cli.js')).flowMain(args),
  'virtual-device': async (args) => (await import('./virtual-device/cli.js')).runVirtualDeviceCli(args),
};

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) return serve();
  if (name.startsWith('--toolsets')) return serve(argv);
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
