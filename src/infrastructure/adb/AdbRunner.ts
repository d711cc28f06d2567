import { HarnessError } from '../../domain/errors.js';
import type { Logger } from '../../domain/ports.js';
import {
  LauncherStoppedError,
  sharedLauncher,
  type LaunchFailure,
  type ProcessLauncher,
} from '../process/ProcessLauncher.js';

export interface AdbResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface AdbRunnerOptions {
  /** null when adb could not be located: every run then fails with the install remedy. */
  readonly adbPath: string | null;
  readonly serial: string;
  readonly defaultTimeoutMs: number;
  /** Passed to adb as is (ANDROID_ADB_SERVER_PORT selects the adb server). Defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
  readonly logger: Logger;
  /** Who starts the adb processes; by default the server's shared launcher process (ProcessLauncher.ts says why). */
  readonly launcher?: ProcessLauncher;
}

/** A 2400x1080 screenshot is 1–6 MB; leave room for tall tablets and 16-bit PNGs. */
export const ADB_MAX_BUFFER = 64 * 1024 * 1024;

const VERSION_MISMATCH = /adb server version \(\d+\) doesn't match this client \(\d+\)/i;

export const ADB_NOT_FOUND_MESSAGE =
  'adb was not found. Install Android platform-tools or set ANDROID_HOME (or ANDROID_SDK_ROOT) to the SDK that contains platform-tools/adb, or put adb on the PATH the MCP client starts the server with.';

/**
 * Turns adb's own complaints (not the device command's) into a message that says what to do.
 * Returns null when the text shows no adb-level failure.
 */
export function classifyAdbFailure(text: string, serial: string): string | null {
  // Only adb's own lines count: a device command may print anything on stderr.
  const t = text
    .split(/\r?\n/)
    .filter((line) => /^\s*(adb: )?error:|daemon|adb server|smartsocket/i.test(line))
    .join('\n')
    .toLowerCase();
  if (!t) return null;
  if (t.includes('unauthorized')) {
    return `The device ${serial} is unauthorized: unlock it and accept the "Allow USB debugging" prompt, then retry. If no prompt appears, revoke USB debugging authorizations in Developer options and reconnect.`;
  }
  if (t.includes('insufficient permissions') || t.includes('no permissions')) {
    return `adb has no permission to open ${serial}: fix the udev rules (e.g. the android-sdk-platform-tools-common rules and the plugdev group) or run adb with sufficient rights, then \`adb kill-server && adb start-server\`.`;
  }
  if (t.includes('device offline') || /\boffline\b/.test(t)) {
    return `The device ${serial} is offline. Restart adb (\`adb kill-server && adb start-server\`) or the emulator, wait until \`adb devices\` shows it as "device", then retry.`;
  }
  if (t.includes('recovery') || t.includes('sideload') || t.includes('bootloader')) {
    return `The device ${serial} is in recovery/bootloader mode, not running Android. Reboot it normally and retry.`;
  }
  if (
    t.includes('cannot connect to daemon') ||
    t.includes('failed to start daemon') ||
    t.includes('could not install *smartsocket*')
  ) {
    return 'The adb server could not be reached or started. Check that nothing else holds its port (ANDROID_ADB_SERVER_PORT, default 5037), then `adb start-server` and retry.';
  }
  if (t.includes('not found') && (t.includes('device') || t.includes('emulator'))) {
    return `No device ${serial} is connected to adb. Start the emulator (or \`adb connect\` it) and make sure ANDROID_UDID matches a serial listed by \`adb devices\`.`;
  }
  if (t.includes('no devices/emulators found') || t.includes('more than one device')) {
    return `No device ${serial} is connected to adb. Start the emulator and check \`adb devices\`.`;
  }
  if (/error: (closed|protocol fault)/.test(t)) {
    return `The connection to ${serial} closed unexpectedly. Check \`adb devices\`; restart adb (\`adb kill-server && adb start-server\`) if it keeps happening.`;
  }
  return null;
}

interface RawOutcome {
  readonly error: LaunchFailure | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/**
 * Runs `adb -s <serial> <args>` as an executable with an argument vector: no local shell
 * ever parses anything. Which args may be passed is decided by AdbDeviceGateway's closed list.
 */
export class AdbRunner {
  readonly #adbPath: string | null;
  readonly #serial: string;
  readonly #defaultTimeoutMs: number;
  readonly #env: NodeJS.ProcessEnv;
  readonly #logger: Logger;
  readonly #launcher: ProcessLauncher;

  constructor(options: AdbRunnerOptions) {
    if (!options.serial || options.serial.startsWith('-')) throw new Error('AdbRunner needs a device serial');
    this.#adbPath = options.adbPath;
    this.#serial = options.serial;
    this.#defaultTimeoutMs = options.defaultTimeoutMs;
    this.#env = { ...(options.env ?? process.env) };
    this.#logger = options.logger;
    this.#launcher = options.launcher ?? sharedLauncher;
    Object.freeze(this);
  }

  get adbPath(): string | null {
    return this.#adbPath;
  }

  get serial(): string {
    return this.#serial;
  }

  async run(args: readonly string[], options: { timeoutMs?: number } = {}): Promise<AdbResult> {
    if (this.#adbPath === null) throw new HarnessError('EMULATOR_UNAVAILABLE', ADB_NOT_FOUND_MESSAGE);
    const timeoutMs = options.timeoutMs ?? this.#defaultTimeoutMs;
    const argv = ['-s', this.#serial, ...args];
    let outcome = await this.#exec(argv, timeoutMs);
    if (outcome.error && VERSION_MISMATCH.test(outcome.stderr)) {
      // The client just killed a server of another version and may have failed half-way: once more.
      this.#logger.warn('adb server version mismatch; retrying once', { args });
      outcome = await this.#exec(argv, timeoutMs);
    }
    return this.#interpret(args, outcome, timeoutMs);
  }

  async #exec(argv: string[], timeoutMs: number): Promise<RawOutcome> {
    const adbPath = this.#adbPath as string;
    const started = performance.now();
    let launched;
    try {
      launched = await this.#launcher.launch(adbPath, argv, { timeoutMs, maxBuffer: ADB_MAX_BUFFER, env: this.#env });
    } catch (error) {
      if (!(error instanceof LauncherStoppedError)) throw error;
      // Whether adb ran is unknown: nothing is retried behind the caller's back.
      throw new HarnessError(
        'EMULATOR_UNAVAILABLE',
        `The helper process that starts adb ended before adb answered (${argv.slice(2, 4).join(' ')}); it is started again on the next call. Retry; if it keeps happening, see the server log.`,
        { cause: error },
      );
    }
    const { error, stdout, stderr } = launched;
    this.#logger.debug('adb', {
      args: argv.slice(2),
      ms: Math.round(performance.now() - started),
      exit: error ? (error.code ?? error.signal ?? 'error') : 0,
    });
    return { error, stdout, stderr: stderr.toString('utf8') };
  }

  #interpret(args: readonly string[], outcome: RawOutcome, timeoutMs: number): AdbResult {
    const { error, stdout, stderr } = outcome;
    if (!error) return { stdout, stderr, exitCode: 0 };

    const code = error.code;
    if (code === 'ENOENT' || code === 'EACCES') {
      throw new HarnessError('EMULATOR_UNAVAILABLE', ADB_NOT_FOUND_MESSAGE, { cause: new Error(error.message) });
    }
    if (error.killed || error.signal === 'SIGKILL') {
      throw new HarnessError(
        'EMULATOR_UNAVAILABLE',
        `adb did not answer within ${Math.round(timeoutMs / 1000)} s (${args.slice(0, 2).join(' ')}). The device may be hung or still booting: check \`adb devices\`, restart the emulator or run \`adb kill-server && adb start-server\`, then retry.`,
        { cause: new Error(error.message) },
      );
    }
    if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
      throw new HarnessError('EMULATOR_UNAVAILABLE', 'adb returned more output than the harness accepts (64 MB).', {
        cause: new Error(error.message),
      });
    }
    const adbFailure = classifyAdbFailure(stderr, this.#serial);
    if (adbFailure) throw new HarnessError('EMULATOR_UNAVAILABLE', adbFailure, { cause: new Error(stderr.trim()) });
    // The command itself ran and exited non-zero: the caller judges its output.
    const exitCode = typeof code === 'number' ? code : 1;
    return { stdout, stderr, exitCode };
  }
}
