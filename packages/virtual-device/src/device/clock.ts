/** Time for the device: injected so unit tests can run lifecycles without waiting. */
export interface DeviceClock {
  nowMs(): number;
  /** Resolves after `ms`, or at once when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: DeviceClock = {
  nowMs: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
