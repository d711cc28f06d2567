import { HarnessError } from '../../domain/errors.js';
import type { Clock } from '../../domain/ports.js';

/** Thrown (as OPERATION_TIMEOUT) when a bounded call outlives its ceiling. */
export class DeadlineExceeded extends HarnessError {
  constructor(message: string) {
    super('OPERATION_TIMEOUT', message);
  }
}

/**
 * Races `work` against a clock timer so the caller gets an answer on time even when
 * the driver never replies. The event loop is never blocked: this only stops waiting.
 * `onLate` receives the value if `work` resolves after the deadline, so a resource
 * created too late (an Appium session) can still be released instead of leaking.
 */
export function withDeadline<T>(
  clock: Clock,
  ms: number,
  work: Promise<T>,
  timeoutMessage: string,
  onLate?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = clock.setTimeout(() => {
      expired = true;
      reject(new DeadlineExceeded(timeoutMessage));
    }, ms);
    work.then(
      (value) => {
        if (expired) {
          onLate?.(value);
          return;
        }
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (expired) return; // the caller has already been answered
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}
