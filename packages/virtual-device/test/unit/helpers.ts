import type { ShellIo } from '../../src/contracts.js';
import type { VirtualDevice } from '../../src/device/VirtualDevice.js';

export interface ShellResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/** Runs one command line on the device as the transport would, collecting its streams. */
export async function sh(
  device: VirtualDevice,
  commandLine: string,
  signal = new AbortController().signal,
): Promise<ShellResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const io: ShellIo = {
    stdout: (c) => void out.push(Buffer.from(c)),
    stderr: (c) => void err.push(Buffer.from(c)),
    aborted: signal,
    onStdin: () => undefined,
  };
  const code = await device.runShell(commandLine, io, 'shell_v2');
  return { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code };
}

/** Runs a command and keeps its raw stdout bytes (screencap). */
export async function shBytes(device: VirtualDevice, commandLine: string): Promise<Buffer> {
  const out: Buffer[] = [];
  const io: ShellIo = {
    stdout: (c) => void out.push(Buffer.from(c)),
    stderr: () => undefined,
    aborted: new AbortController().signal,
    onStdin: () => undefined,
  };
  await device.runShell(commandLine, io, 'exec');
  return Buffer.concat(out);
}
