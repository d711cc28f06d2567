import { describe, expect, it } from 'vitest';
import { parseSinceLast, parseTextMode, treeAsk, type TreeArguments } from '../../../src/domain/tree/treeRequest.js';
import { HarnessError } from '../../../src/domain/errors.js';

const NONE: TreeArguments = {
  includeRaw: undefined,
  rawOffset: undefined,
  since: undefined,
  within: undefined,
  mode: undefined,
};

/** The HarnessError `fn` throws; fails the test when it throws nothing or something else. */
function harnessError(fn: () => unknown): HarnessError {
  let thrown: unknown = null;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(HarnessError);
  return thrown as HarnessError;
}

describe("ui_get_tree's arguments together", () => {
  it('since and mode take their one value; absent and null are not given', () => {
    expect(parseSinceLast('last')).toBe('last');
    expect(parseTextMode('text')).toBe('text');
    for (const raw of [undefined, null]) {
      expect(parseSinceLast(raw)).toBeUndefined();
      expect(parseTextMode(raw)).toBeUndefined();
    }
    expect(harnessError(() => parseSinceLast('first'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(harnessError(() => parseTextMode('raw'))).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('raw_offset implies the raw XML and contradicts include_raw: false', () => {
    expect(treeAsk({ ...NONE, rawOffset: 5 })).toEqual({ includeRaw: true, rawOffset: 5 });
    expect(treeAsk({ ...NONE, includeRaw: true })).toEqual({ includeRaw: true });
    expect(treeAsk(NONE)).toEqual({ includeRaw: false });
    expect(harnessError(() => treeAsk({ ...NONE, includeRaw: false, rawOffset: 0 })).message).toContain(
      'raw_offset with include_raw: false',
    );
  });

  it('a part of the screen is never a diff nor sent with the raw XML', () => {
    const within = { ref: 'e5' };
    expect(treeAsk({ ...NONE, within, mode: 'text' })).toEqual({ includeRaw: false, within, textOnly: true });
    expect(treeAsk({ ...NONE, since: 'last' })).toEqual({ includeRaw: false, sinceLast: true });
    for (const part of [{ within }, { mode: 'text' as const }]) {
      expect(harnessError(() => treeAsk({ ...NONE, since: 'last', ...part })).message).toMatch(/^Invalid since with/);
      expect(harnessError(() => treeAsk({ ...NONE, includeRaw: true, ...part })).message).toMatch(
        /^Invalid include_raw with/,
      );
      expect(harnessError(() => treeAsk({ ...NONE, rawOffset: 0, ...part })).code).toBe('INVALID_ARGUMENT');
    }
  });
});
