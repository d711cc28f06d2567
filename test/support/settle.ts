import { sleep } from './processes.js';

/**
 * Reads `read` every `pollMs` until `settled` says yes or `withinMs` passes, and returns the last
 * value read: a test then asserts on it, so a wait that ran out fails with what was seen.
 * For counts that reach their value a moment after the call that causes it (a session closed in
 * the background, a lease timer firing).
 */
export async function settledValue<T>(
  read: () => Promise<T>,
  settled: (value: T) => boolean,
  withinMs = 20_000,
  pollMs = 250,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  let value = await read();
  while (!settled(value) && Date.now() < deadline) {
    await sleep(pollMs);
    value = await read();
  }
  return value;
}
