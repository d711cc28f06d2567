/**
 * `shell,v2,…:<cmd>`, `shell[,raw|,pty]:<cmd>` and `exec:<cmd>`: run a command line
 * through the device's shell and carry its output back.
 *
 * shell_v2 frames every message as `[id:u8][len:u32le][data]` (0 stdin, 1 stdout,
 * 2 stderr, 3 exit, 4 close-stdin, 5 window size) and ends with the exit code.
 * The legacy services carry raw bytes, stdout and stderr merged, and no exit code.
 */
import type { DeviceServices, ShellIo, ShellOrigin } from '../contracts.js';
import type { ServiceStream } from './stream.js';

export const SHELL_ID_STDIN = 0;
export const SHELL_ID_STDOUT = 1;
export const SHELL_ID_STDERR = 2;
export const SHELL_ID_EXIT = 3;
export const SHELL_ID_CLOSE_STDIN = 4;
export const SHELL_ID_WINDOW_SIZE = 5;

export interface ShellRequest {
  readonly command: string;
  /** shell_v2 framing (exit codes, separate stderr). */
  readonly protocolV2: boolean;
  /** Output passes through a PTY: `\n` becomes `\r\n`. */
  readonly pty: boolean;
  readonly origin: ShellOrigin;
}

/**
 * Parses `shell:<cmd>`, `shell,v2,TERM=xterm,raw:<cmd>`, `shell,raw:<cmd>`, `exec:<cmd>`.
 * Returns null for anything else. `legacyPty` is the device's trait: without an explicit
 * `raw`/`pty` argument, a legacy shell gets a PTY only on such a device (modern adbd
 * gives non-interactive commands a raw pipe), and an empty command always gets one.
 */
export function parseShellService(service: string, legacyPty: boolean): ShellRequest | null {
  if (service.startsWith('exec:')) {
    return { command: service.slice('exec:'.length), protocolV2: false, pty: false, origin: 'exec' };
  }
  const match = /^shell(?:,([^:]*))?:([\s\S]*)$/.exec(service);
  if (!match) return null;
  const args = (match[1] ?? '').split(',').filter((arg) => arg.length > 0);
  const command = match[2] ?? '';
  const protocolV2 = args.includes('v2');
  let pty: boolean;
  if (args.includes('raw')) pty = false;
  else if (args.includes('pty')) pty = true;
  else pty = command.length === 0 || (!protocolV2 && legacyPty);
  return { command, protocolV2, pty, origin: protocolV2 ? 'shell_v2' : 'shell' };
}

export function encodeShellFrame(id: number, data: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(id, 0);
  header.writeUInt32LE(data.length, 1);
  return Buffer.concat([header, data]);
}

/** Reassembles shell_v2 frames from WRTE payloads cut anywhere. */
export class ShellFrameReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Array<{ id: number; data: Buffer }> {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Array<{ id: number; data: Buffer }> = [];
    while (this.pending.length >= 5) {
      const length = this.pending.readUInt32LE(1);
      if (this.pending.length < 5 + length) break;
      frames.push({ id: this.pending.readUInt8(0), data: Buffer.from(this.pending.subarray(5, 5 + length)) });
      this.pending = this.pending.subarray(5 + length);
    }
    return frames;
  }
}

/** What a PTY's output processing (ONLCR) does to a stream: a lone `\n` becomes `\r\n`. */
export class PtyLineDiscipline {
  private lastByte = -1;

  translate(chunk: Buffer): Buffer {
    const out: number[] = [];
    for (const byte of chunk) {
      if (byte === 0x0a && this.lastByte !== 0x0d) out.push(0x0d);
      out.push(byte);
      this.lastByte = byte;
    }
    return Buffer.from(out);
  }
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

export function runShellService(stream: ServiceStream, services: DeviceServices, request: ShellRequest): void {
  const stdinListeners: Array<(chunk: Buffer) => void> = [];
  const emitStdin = (chunk: Buffer): void => {
    for (const listener of stdinListeners) listener(chunk);
  };
  const pty = request.pty ? new PtyLineDiscipline() : null;

  const writeOutput = (id: number, chunk: Buffer | string): void => {
    const bytes = toBuffer(chunk);
    if (stream.closed || bytes.length === 0) return;
    if (request.protocolV2) {
      stream.write(encodeShellFrame(id, pty ? pty.translate(bytes) : bytes));
    } else {
      stream.write(pty ? pty.translate(bytes) : bytes);
    }
  };

  if (request.protocolV2) {
    const frames = new ShellFrameReader();
    stream.onData((chunk) => {
      for (const frame of frames.push(chunk)) {
        if (frame.id === SHELL_ID_STDIN) emitStdin(frame.data);
        // close-stdin and window-size change nothing for the emulated commands.
      }
    });
  } else {
    stream.onData((chunk) => emitStdin(chunk));
  }

  const io: ShellIo = {
    stdout: (chunk) => writeOutput(SHELL_ID_STDOUT, chunk),
    stderr: (chunk) => writeOutput(SHELL_ID_STDERR, chunk),
    aborted: stream.aborted,
    onStdin: (listener) => {
      stdinListeners.push(listener);
    },
  };

  const finish = (code: number): void => {
    if (stream.closed) return;
    if (request.protocolV2) stream.write(encodeShellFrame(SHELL_ID_EXIT, Buffer.from([code & 0xff])));
    stream.end();
  };

  services.runShell(request.command, io, request.origin).then(finish, (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    services.log('shell', `command failed inside the virtual device: ${request.command}: ${message}`);
    writeOutput(SHELL_ID_STDERR, `/system/bin/sh: ${message}\n`);
    finish(1);
  });
}
