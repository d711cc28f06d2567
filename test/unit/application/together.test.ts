import { describe, expect, it } from 'vitest';
import { together } from '../../../src/application/time/together.js';

/** A promise the test settles by hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('together: independent reads at once, settled before the caller goes on', () => {
  it('gives the values in argument order', async () => {
    await expect(together(Promise.resolve(1), Promise.resolve('two'), Promise.resolve(true))).resolves.toEqual([
      1,
      'two',
      true,
    ]);
  });

  it('does not reject while another read still runs (the gate stays held until every one has settled)', async () => {
    const slow = deferred<number>();
    let settled = false;
    const all = together(Promise.reject(new Error('dump failed')), slow.promise).finally(() => {
      settled = true;
    });
    all.catch(() => undefined);
    await flush();
    expect(settled).toBe(false);
    slow.resolve(420);
    await expect(all).rejects.toThrow('dump failed');
  });

  it('reports the first failure in argument order, as a sequential run would have met it', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const all = together(first.promise, second.promise);
    second.reject(new Error('second'));
    await flush();
    first.reject(new Error('first'));
    await expect(all).rejects.toThrow('first');
  });
});
