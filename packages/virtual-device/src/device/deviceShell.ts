/**
 * The device's /system/bin/sh as adb's shell services reach it: the command table (basic commands,
 * packages, dumpsys, screen tools) over what the device exposes to commands, the shell's
 * environment, and the injected faults that hold or delay a command.
 */
import type { DeviceLogKind, ShellIo, ShellOrigin } from '../contracts.js';
import { registerBasicCommands } from '../shell/commands/basic.js';
import { registerActivityManager } from '../shell/commands/activityManager.js';
import { registerDumpsys } from '../shell/commands/dumpsys.js';
import { registerFileCopy } from '../shell/commands/fileCopy.js';
import { registerPackageManager } from '../shell/commands/packageManager.js';
import { registerScreenCommands } from '../shell/commands/screen.js';
import type { CommandTable, ShellDevice } from '../shell/context.js';
import { ShellInterpreter, type CommandIo } from '../shell/interpreter.js';
import type { CostModel } from '../timing/costModel.js';
import type { FaultInjector } from './faultInjector.js';
import type { WindowTransitions } from './windowTransitions.js';

/** What the device hands its shell; the window transitions' answers are added from `windows`. */
export type ShellDeviceParts = Omit<ShellDevice, 'runNested' | WindowAnswers>;
type WindowAnswers =
  'beginLaunch' | 'launchInProgress' | 'focusInTransit' | 'settingsHelperInFront' | 'settingsHelperStarted' | 'lastAnr';

export class DeviceShell {
  /** What shell commands may touch on the device. */
  readonly device: ShellDevice;
  private readonly commands: CommandTable = new Map();
  private readonly env = new Map<string, string>();
  private readonly interpreter: ShellInterpreter;

  constructor(
    device: ShellDeviceParts,
    windows: WindowTransitions,
    private readonly faults: FaultInjector,
    cost: CostModel,
  ) {
    const log = (kind: DeviceLogKind, detail: string): void => device.log(kind, detail);
    this.device = {
      ...device,
      beginLaunch: (pkg) => windows.beginLaunch(pkg),
      launchInProgress: () => windows.launchInProgress(),
      focusInTransit: () => windows.focusInTransit(),
      settingsHelperInFront: () => windows.settingsHelperInFront(),
      settingsHelperStarted: () => windows.settingsHelperStarted(),
      lastAnr: () => windows.lastAnr(),
      runNested: (line, out, err, signal) => this.interpreter.run(line, out, err, signal, new Map(this.env)),
    };
    registerBasicCommands(this.commands, this.device);
    registerActivityManager(this.commands, this.device);
    registerPackageManager(this.commands, this.device);
    registerDumpsys(this.commands, this.device);
    registerScreenCommands(this.commands, this.device);
    registerFileCopy(this.commands, this.device);
    const system = device.system;
    this.interpreter = new ShellInterpreter({
      // Names starting with `__` are the table's own helpers, not commands a client may run.
      command: (name) => {
        const handler = name.startsWith('__') ? undefined : this.commands.get(name);
        // Each command first takes the time it takes on a real device (timing/shellCosts.ts).
        if (!handler) return undefined;
        return async (io) => {
          if (!drawsWhileCharged(io.argv)) {
            await cost.spendShell(io.argv, io.signal);
            return handler(io);
          }
          // A capture to stdout: the double draws its frame while the device's time runs (drawnWhileCharged).
          return drawnWhileCharged(() => cost.spendShell(io.argv, io.signal), handler, io);
        };
      },
      readFile: (p) => system.readFile(p),
      writeFile: (p, data, append) => system.writeFile(p, data, { append }),
      unknownCommand: (name, line) => log('unknown-command', `${name} (in: ${line})`),
    });
  }

  /** Runs a command line for adb's shell service; resolves with its exit code (130 when a hung command is abandoned). */
  async run(commandLine: string, io: ShellIo, origin: ShellOrigin): Promise<number> {
    const log = this.device.log.bind(this.device);
    log('shell', `${origin}: ${commandLine}`);
    const fault = this.faults.delayFor('shell', commandLine);
    if (fault === 'hang') {
      log('fault', `shell hung (injected): ${commandLine}`);
      await new Promise<void>((resolve) => io.aborted.addEventListener('abort', () => resolve(), { once: true }));
      return 130;
    }
    if (fault > 0) await this.device.clock.sleep(fault, io.aborted);
    const code = await this.interpreter.run(
      commandLine,
      (c) => io.stdout(c),
      (c) => io.stderr(c),
      io.aborted,
      this.env,
    );
    this.env.delete('?');
    return code;
  }
}

/**
 * `screencap` writing to stdout (no file operand: every argument is a flag or `-d`'s display id).
 * Its work overlaps its charged time; a capture to a file keeps the plain order (the file appears
 * only once the time has run).
 */
export function drawsWhileCharged(argv: readonly string[]): boolean {
  if (argv[0] !== 'screencap') return false;
  const args = argv.slice(1);
  return args.every((arg, i) => arg.startsWith('-') || args[i - 1] === '-d');
}

/**
 * Runs `handler` while `spend` (the device's time for the command) runs, holding what it writes until
 * both are done: the answer never comes sooner than the figure (never kinder than a device), and the
 * double's own drawing is not added on top of what a device spends. On a device the capture is what
 * takes that time (screencap.cpp: captureDisplay, then the write to stdout).
 */
export async function drawnWhileCharged(
  spend: () => Promise<void>,
  handler: (io: CommandIo) => Promise<number> | number,
  io: CommandIo,
): Promise<number> {
  const held: (() => void)[] = [];
  const [, code] = await Promise.all([
    spend(),
    handler({
      ...io,
      out: (chunk) => held.push(() => io.out(chunk)),
      err: (chunk) => held.push(() => io.err(chunk)),
    }),
  ]);
  for (const write of held) write();
  return code;
}
