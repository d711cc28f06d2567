/**
 * `android-mcp-virtual-device [--port N] [--scenario FILE] [--screen DUMP.xml [--screenshot SHOT.png]]` (in a checkout of
 * the harness also `android-mcp-harness virtual-device …`): runs the virtual Android device in the
 * foreground until SIGINT/SIGTERM. Everything it prints goes to stderr (stdout belongs to MCP when
 * the harness's bin starts it).
 */
import { startAdbTransport } from './adb/index.js';
import type { DeviceLogEntry } from './contracts.js';
import { VirtualDevice } from './device/index.js';
import { defaultTiming, TIMING_MODES, type TimingMode } from './timing/costModel.js';

/** Where the device's screens come from. */
export type CliDeviceSource =
  | { readonly kind: 'default' }
  | { readonly kind: 'scenario'; readonly file: string }
  | { readonly kind: 'screen'; readonly file: string; readonly screenshot?: string };

function createDevice(
  source: CliDeviceSource,
  timing: TimingMode,
  onLog: ((entry: DeviceLogEntry) => void) | undefined,
): VirtualDevice {
  const options = { timing, ...(onLog ? { onLog } : {}) };
  switch (source.kind) {
    case 'scenario':
      return VirtualDevice.fromScenarioFile(source.file, options);
    case 'screen':
      return VirtualDevice.fromDumpFile(source.file, options, source.screenshot);
    default:
      return VirtualDevice.withDefaultScenario(options);
  }
}

function describeSource(source: CliDeviceSource): string {
  switch (source.kind) {
    case 'scenario':
      return `scenario ${source.file}`;
    case 'screen':
      return `static screen from ${source.file}${source.screenshot ? ` with the capture ${source.screenshot}` : ''}`;
    default:
      return 'default scenario';
  }
}

function formatLogEntry(entry: DeviceLogEntry): string {
  return `[device] +${(entry.atMs / 1000).toFixed(3)}s ${entry.kind} ${entry.detail}`;
}

const DEFAULT_PORT = 5555;

const usage = (program: string): string => `Usage: ${program} [options]

Runs a virtual Android device that the real adb and Appium (UiAutomator2) accept.

Options:
  --port N          TCP port for the ADB transport (default ${DEFAULT_PORT}). On 5555 the adb server
                    finds it by itself as emulator-5554, like an AVD; on another port run
                    \`adb connect 127.0.0.1:N\`.
  --scenario FILE   A scenario file (JSON) instead of the built-in scenario.
  --screen DUMP.xml Show a uiautomator dump as a static screen (every node can be found and clicked).
  --screenshot SHOT.png
                    With --screen: a real capture of the same screen, answered as it is by
                    screencap and the UiAutomator2 screenshot (same size as the dump's display).
  --host 127.0.0.1  Listen address; only loopback is allowed.
  --timing MODE     real (default): every operation takes a real device's time (adb shell
                    commands, the UiAutomator2 server's requests, dumps), drawn from recorded
                    medians and tails; fast: nothing waits (for suites that do not measure time).
  --quiet           Do not print the device log.
  --help            Show this help.
`;

export interface VirtualDeviceCliOptions {
  readonly port: number;
  readonly host: '127.0.0.1';
  readonly source: CliDeviceSource;
  readonly quiet: boolean;
  readonly timing: TimingMode;
}

export class CliUsageError extends Error {}

function parsePort(value: string | undefined): number {
  const port = Number(value);
  if (!value || !/^\d+$/.test(value) || port < 1 || port > 65535) {
    throw new CliUsageError(`--port needs a number between 1 and 65535, got ${JSON.stringify(value ?? '')}`);
  }
  return port;
}

/** Parses the subcommand's arguments; null means --help. Throws CliUsageError on bad input. */
export function parseVirtualDeviceArgs(argv: readonly string[]): VirtualDeviceCliOptions | null {
  let port = DEFAULT_PORT;
  let scenarioFile: string | undefined;
  let screenFile: string | undefined;
  let screenshotFile: string | undefined;
  let quiet = false;
  let timing: TimingMode = defaultTiming();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new CliUsageError(`${flag} needs a value`);
      i += 1;
      return next;
    };
    switch (flag) {
      case '--help':
      case '-h':
        return null;
      case '--port':
        port = parsePort(value());
        break;
      case '--scenario':
        scenarioFile = value();
        break;
      case '--screen':
        screenFile = value();
        break;
      case '--screenshot':
        screenshotFile = value();
        break;
      case '--host': {
        const host = value();
        if (host !== '127.0.0.1' && host !== 'localhost') {
          throw new CliUsageError(`--host ${host}: the virtual device listens on loopback only (127.0.0.1)`);
        }
        break;
      }
      case '--quiet':
        quiet = true;
        break;
      case '--timing': {
        const mode = value();
        const known = TIMING_MODES.find((m) => m === mode);
        if (!known) throw new CliUsageError(`--timing needs real or fast, got ${JSON.stringify(mode.slice(0, 32))}`);
        timing = known;
        break;
      }
      default:
        throw new CliUsageError(`unknown option ${JSON.stringify(arg.slice(0, 64))}`);
    }
  }
  if (scenarioFile !== undefined && screenFile !== undefined) {
    throw new CliUsageError('--scenario and --screen cannot be combined: pick one');
  }
  if (screenshotFile !== undefined && screenFile === undefined) {
    throw new CliUsageError("--screenshot needs --screen DUMP.xml: the capture is of that dump's screen");
  }
  const source: CliDeviceSource =
    screenFile !== undefined
      ? { kind: 'screen', file: screenFile, ...(screenshotFile === undefined ? {} : { screenshot: screenshotFile }) }
      : scenarioFile !== undefined
        ? { kind: 'scenario', file: scenarioFile }
        : { kind: 'default' };
  return { port, host: '127.0.0.1', source, quiet, timing };
}

/** How a user reaches the device on that port. */
export function reachInstructions(port: number): string[] {
  if (port === DEFAULT_PORT) {
    return [
      `  serial: emulator-5554 (the adb server probes 5555 itself, as for an AVD: do not also \`adb connect\` it;`,
      `          if adb was already running, \`adb devices\` shows it within a few seconds)`,
      `  try:    adb -s emulator-5554 shell getprop ro.build.version.sdk`,
    ];
  }
  return [
    `  connect: adb connect 127.0.0.1:${port}`,
    `  serial:  127.0.0.1:${port}`,
    `  try:     adb -s 127.0.0.1:${port} shell getprop ro.build.version.sdk`,
    `  done:    adb disconnect 127.0.0.1:${port}`,
  ];
}

/**
 * The variables the harness reads to find a device. Written out here rather than imported:
 * this room imports nothing of the harness (docs/reference/configuration.md is the reference).
 */
const HARNESS_ENV = {
  udid: 'ANDROID_UDID',
  allowSerials: 'ANDROID_MCP_ALLOW_SERIALS',
  adbServerPort: 'ANDROID_ADB_SERVER_PORT',
} as const;

/** The serial adb gives the device on that port (see reachInstructions). */
export function serialFor(port: number): string {
  return port === DEFAULT_PORT ? 'emulator-5554' : `127.0.0.1:${port}`;
}

/**
 * The environment a harness needs to use this device: its serial; the allow-list entry, since
 * the harness refuses any serial that is not `emulator-N` unless it is listed; and the adb
 * server's port when the device was started under a private one (ANDROID_ADB_SERVER_PORT set
 * in this shell, which is the server `adb connect` reaches from here).
 */
export function harnessEnvFor(port: number, adbServerPort: string | undefined): Record<string, string> {
  const serial = serialFor(port);
  const env: Record<string, string> = { [HARNESS_ENV.udid]: serial };
  if (!/^emulator-\d+$/.test(serial)) env[HARNESS_ENV.allowSerials] = serial;
  if (
    adbServerPort !== undefined &&
    /^\d{1,5}$/.test(adbServerPort) &&
    Number(adbServerPort) >= 1 &&
    Number(adbServerPort) <= 65535
  ) {
    env[HARNESS_ENV.adbServerPort] = adbServerPort;
  }
  return env;
}

/** A word as a POSIX shell reads it back unchanged: bare when it is plainly safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

export interface ClientInstructionsInput {
  readonly port: number;
  /** ANDROID_ADB_SERVER_PORT of the environment the device was started from, if any. */
  readonly adbServerPort: string | undefined;
  /** How the client starts the harness, e.g. ['node', '/abs/dist/index.js']. */
  readonly serverCommand: readonly string[];
}

/** What to paste into an MCP client so that the harness uses this device: the env block and the Claude Code line. */
export function clientInstructions(input: ClientInstructionsInput): string[] {
  const env = harnessEnvFor(input.port, input.adbServerPort);
  const entries = Object.entries(env);
  const envBlock = `{ ${entries.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')} }`;
  const claude = [
    'claude',
    'mcp',
    'add',
    'android',
    ...entries.flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    '--',
    ...input.serverCommand,
  ];
  const adbServer =
    env[HARNESS_ENV.adbServerPort] === undefined
      ? `adb server on 5037, or start the device with ${HARNESS_ENV.adbServerPort}=N for another`
      : `adb server on ${env[HARNESS_ENV.adbServerPort]}, from ${HARNESS_ENV.adbServerPort}`;
  return [
    `  harness env (paste into the MCP client's server entry; ${adbServer}):`,
    `    "env": ${envBlock}`,
    '  Claude Code:',
    `    ${claude.map(shellWord).join(' ')}`,
  ];
}

/** Who started the device: the name its usage prints, and how an MCP client starts the harness. */
export interface VirtualDeviceCliHost {
  /** e.g. `android-mcp-harness virtual-device` when the harness's bin started it. */
  readonly program: string;
  /**
   * How the printed client lines start the harness, e.g. ['node', '/abs/dist/index.js'] from a
   * checkout. The device knows nothing of the harness (its own package): the caller says.
   */
  readonly harnessCommand: readonly string[];
}

/** Run as its own bin: the harness is the published package, started by its bin's name. */
const STANDALONE: VirtualDeviceCliHost = {
  program: 'android-mcp-virtual-device',
  harnessCommand: ['npx', '-y', 'android-mcp-harness'],
};

function stderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

export async function runVirtualDeviceCli(
  argv: readonly string[],
  host: VirtualDeviceCliHost = STANDALONE,
): Promise<number> {
  let options: VirtualDeviceCliOptions | null;
  try {
    options = parseVirtualDeviceArgs(argv);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    stderr(`virtual-device: ${error.message}`);
    process.stderr.write(usage(host.program));
    return 2;
  }
  if (!options) {
    process.stderr.write(usage(host.program));
    return 0;
  }

  let device: VirtualDevice;
  try {
    device = createDevice(
      options.source,
      options.timing,
      options.quiet ? undefined : (entry) => stderr(formatLogEntry(entry)),
    );
  } catch (error) {
    stderr(`virtual-device: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }

  let transport: Awaited<ReturnType<typeof startAdbTransport>>;
  try {
    transport = await startAdbTransport({ port: options.port, host: options.host, services: device });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? ` (port ${options.port} is in use: an emulator or another virtual device? pick another with --port)`
        : '';
    stderr(`virtual-device: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}${hint}`);
    return 1;
  }

  stderr(
    `virtual-device: ${describeSource(options.source)}, ${options.timing} timing, listening on ${options.host}:${transport.port}`,
  );
  for (const line of reachInstructions(transport.port)) stderr(line);
  for (const line of clientInstructions({
    port: transport.port,
    adbServerPort: process.env.ANDROID_ADB_SERVER_PORT,
    serverCommand: host.harnessCommand,
  })) {
    stderr(line);
  }
  stderr('  stop:   Ctrl-C');

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  stderr('virtual-device: stopping');
  await transport.close();
  return 0;
}
