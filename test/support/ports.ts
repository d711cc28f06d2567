import { freeLoopbackPort, waitForLoopbackPort } from '../../src/infrastructure/net/loopbackPorts.js';

/**
 * A TCP port that was free on 127.0.0.1 a moment ago (the OS picks it). Another process
 * could still take it before you bind, which is acceptable for tests.
 */
export function freePort(): Promise<number> {
  return freeLoopbackPort();
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port, or rejects after timeoutMs. */
export function waitForPort(port: number, timeoutMs: number): Promise<void> {
  return waitForLoopbackPort(port, { timeoutMs, intervalMs: 50, what: 'the server under test' });
}
