/**
 * Runs parsed command lines the way mksh would: connectors, pipelines (buffered),
 * redirections onto the virtual file system, `export`, `exec`, exit codes.
 */
import { expandWord, parseCommandLine, ShellSyntaxError, type Pipeline, type SimpleCommand } from './parser.js';

export interface CommandIo {
  /** argv[0] is the command name as typed. */
  readonly argv: readonly string[];
  readonly stdin: Buffer;
  out(chunk: string | Buffer): void;
  err(chunk: string | Buffer): void;
  /** Aborts when the client goes away; long-lived commands end on it. */
  readonly signal: AbortSignal;
  readonly env: Map<string, string>;
  /** The full command line, for logs. */
  readonly commandLine: string;
}

export type CommandHandler = (io: CommandIo) => Promise<number> | number;

export interface ShellHost {
  command(name: string): CommandHandler | undefined;
  readFile(path: string): Buffer | null;
  /** Returns an error text (`No such file or directory`) or null. */
  writeFile(path: string, data: Buffer, append: boolean): string | null;
  unknownCommand(name: string, commandLine: string): void;
}

type Sink =
  | { readonly kind: 'out' }
  | { readonly kind: 'err' }
  | { readonly kind: 'null' }
  | { readonly kind: 'file'; readonly path: string; readonly append: boolean };

const SH = '/system/bin/sh';

export class ShellInterpreter {
  constructor(private readonly host: ShellHost) {}

  async run(
    commandLine: string,
    out: (c: Buffer | string) => void,
    err: (c: Buffer | string) => void,
    signal: AbortSignal,
    env = new Map<string, string>(),
  ): Promise<number> {
    let items;
    try {
      items = parseCommandLine(commandLine);
    } catch (e) {
      if (e instanceof ShellSyntaxError) {
        err(`${SH}: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
    let status = 0;
    for (const item of items) {
      if (signal.aborted) break;
      if (item.connector === '&&' && status !== 0) continue;
      if (item.connector === '||' && status === 0) continue;
      status = await this.runPipeline(item.pipeline, commandLine, out, err, signal, env);
      env.set('?', String(status));
    }
    return status;
  }

  private async runPipeline(
    pipeline: Pipeline,
    commandLine: string,
    out: (c: Buffer | string) => void,
    err: (c: Buffer | string) => void,
    signal: AbortSignal,
    env: Map<string, string>,
  ): Promise<number> {
    let stdin = Buffer.alloc(0);
    let status = 0;
    for (let i = 0; i < pipeline.length; i++) {
      const command = pipeline[i];
      if (!command) continue;
      const last = i === pipeline.length - 1;
      const captured: Buffer[] = [];
      const stdout = last ? out : (c: Buffer | string): void => void captured.push(Buffer.from(c));
      status = await this.runCommand(command, stdin, stdout, err, signal, env, commandLine);
      stdin = Buffer.concat(captured);
    }
    return status;
  }

  private async runCommand(
    command: SimpleCommand,
    stdinIn: Buffer,
    out: (c: Buffer | string) => void,
    err: (c: Buffer | string) => void,
    signal: AbortSignal,
    env: Map<string, string>,
    commandLine: string,
  ): Promise<number> {
    const argv = command.words.map((w) => expandWord(w, env));
    if (argv.length === 0) {
      for (const a of command.assignments) env.set(a.name, expandWord(a.value, env));
      return 0;
    }
    // File descriptors 1 and 2, rewired by redirections in order.
    const fds = new Map<number, Sink>([
      [1, { kind: 'out' }],
      [2, { kind: 'err' }],
    ]);
    let stdin = stdinIn;
    for (const r of command.redirections) {
      const target = expandWord(r.target, env);
      if (r.op === '<') {
        if (target === '/dev/null') stdin = Buffer.alloc(0);
        else {
          const data = this.host.readFile(target);
          if (!data) {
            err(`${SH}: can't open ${target}: No such file or directory\n`);
            return 1;
          }
          stdin = data;
        }
      } else if (r.op === '>&') {
        const source = fds.get(Number(target));
        if (!source) {
          err(`${SH}: ${target}: bad file descriptor\n`);
          return 1;
        }
        fds.set(r.fd, source);
      } else if (target === '/dev/null') {
        fds.set(r.fd, { kind: 'null' });
      } else {
        fds.set(r.fd, { kind: 'file', path: target, append: r.op === '>>' });
        const problem = this.host.writeFile(target, Buffer.alloc(0), r.op === '>>');
        if (problem) {
          err(`${SH}: can't create ${target}: ${problem}\n`);
          return 1;
        }
      }
    }
    const writer =
      (fd: number) =>
      (chunk: Buffer | string): void => {
        const sink = fds.get(fd) ?? { kind: 'null' };
        if (sink.kind === 'out') out(chunk);
        else if (sink.kind === 'err') err(chunk);
        else if (sink.kind === 'file') this.host.writeFile(sink.path, Buffer.from(chunk), true);
      };
    let args = argv;
    if (args[0] === 'exec') args = args.slice(1);
    const name = args[0];
    if (name === undefined) return 0;
    if (name === 'export') {
      for (const assignment of args.slice(1)) {
        const eq = assignment.indexOf('=');
        if (eq > 0) env.set(assignment.slice(0, eq), assignment.slice(eq + 1));
      }
      return 0;
    }
    const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    const handler = this.host.command(base);
    if (!handler) {
      this.host.unknownCommand(name, commandLine);
      writer(2)(`${SH}: ${name}: inaccessible or not found\n`);
      return 127;
    }
    const scoped = new Map(env);
    for (const a of command.assignments) scoped.set(a.name, expandWord(a.value, env));
    return handler({ argv: args, stdin, out: writer(1), err: writer(2), signal, env: scoped, commandLine });
  }
}
