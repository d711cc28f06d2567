/**
 * Free ports and readiness on 127.0.0.1: everything the harness starts (its own Appium, the
 * demo's adb server and virtual device) listens on loopback only.
 */
import { connect, createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it; the caller retries if it is taken meanwhile). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not read the free port'))));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port right now. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface WaitForLoopbackPortOptions {
  readonly timeoutMs: number;
  readonly intervalMs: number;
  /** Names the listener in the timeout message. */
  readonly what: string;
  /** Runs before every attempt; throws to stop waiting (the process meant to listen has exited). */
  readonly stillStarting?: () => void;
}

/** Resolves once something accepts connections on 127.0.0.1:port; rejects after timeoutMs. */
export async function waitForLoopbackPort(port: number, options: WaitForLoopbackPortOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.stillStarting?.();
    if (await acceptsConnections(port)) return;
    if (Date.now() > deadline) {
      throw new Error(`${options.what} did not listen on 127.0.0.1:${port} within ${options.timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}
