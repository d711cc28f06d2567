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
