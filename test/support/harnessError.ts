import { expect } from 'vitest';
import { HarnessError } from '../../src/domain/errors.js';

/** The HarnessError `promise` rejects with; fails the test when it resolves or rejects with anything else. */
export async function harnessError(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}

/** The message of the HarnessError `fn` throws, which must carry `code`; fails the test when it throws nothing else. */
export function refusalMessage(code: string, fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe(code);
    return (error as HarnessError).message;
  }
  throw new Error(`expected ${code}`);
}
