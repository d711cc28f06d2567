/**
 * Runs independent device reads at once (each adb read is a process of its own, so their start-up
 * and round trips overlap). Resolves or rejects only once every one of them has settled: nothing
 * is still running on the device when the caller's gate is released, exactly as when they ran one
 * after the other. A failure is reported as a sequential run would have met it: the first in
 * argument order.
 */
export async function together<T extends unknown[]>(...work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const outcomes = await Promise.allSettled(work);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as T;
}
