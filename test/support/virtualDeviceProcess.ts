/**
 * The virtual device as a user starts it: `android-mcp-harness virtual-device --port N`, a
 * separate process on a free loopback port, ended by its pid. Suites that test the CLIs
 * (doctor, flow, demo) use this rather than an in-process device, so that nothing but the
 * real adb transport connects them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from './ports.js';
import { stopChild, trackChild } from './processes.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface VirtualDeviceProcess {
  readonly port: number;
  readonly pid: number;
  /** What the device printed on stderr (its log unless quiet). */
  output(): string;
  stop(): Promise<void>;
}

export interface VirtualDeviceProcessOptions {
  readonly args?: readonly string[];
  readonly quiet?: boolean;
  /** Added to this process's environment for the device (e.g. ANDROID_ADB_SERVER_PORT, which its banner reports). */
  readonly env?: NodeJS.ProcessEnv;
  /** The port to listen on (a device restarted under the same serial); a free one by default. */
  readonly port?: number;
}

export async function startVirtualDeviceProcess(
  options: VirtualDeviceProcessOptions = {},
): Promise<VirtualDeviceProcess> {
  const port = options.port ?? (await freePort());
  const args = [
    path.join(repoRoot, 'dist', 'index.js'),
    'virtual-device',
    '--port',
    String(port),
    ...(options.quiet === false ? [] : ['--quiet']),
    ...(options.args ?? []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  // Ended by pid even if this test process dies before stop().
  trackChild(child);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 200_000) output = output.slice(-100_000);
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) => reject(new Error(`the virtual device exited with ${code}:\n${output}`)));
  });
  exited.catch(() => undefined);
  try {
    await Promise.race([waitForPort(port, 20_000), exited]);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  if (child.pid === undefined) throw new Error('the virtual device has no pid');
  return { port, pid: child.pid, output: () => output, stop: () => stopChild(child) };
}
