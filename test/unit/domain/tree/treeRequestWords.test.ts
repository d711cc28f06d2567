import { describe, expect, it } from 'vitest';
import { parseSinceLast, parseTextMode, treeAsk, type TreeArguments } from '../../../../src/domain/tree/treeRequest.js';
import { refusalMessage } from '../../../support/harnessError.js';

const NONE: TreeArguments = {
  includeRaw: undefined,
  rawOffset: undefined,
  since: undefined,
  within: undefined,
  mode: undefined,
};

/** The refusal's message; fails unless `fn` throws INVALID_ARGUMENT. */
const refusal = (fn: () => unknown): string => refusalMessage('INVALID_ARGUMENT', fn);

describe("ui_get_tree's arguments, word for word", () => {
  it('since and mode refuse any other value and say the one they take', () => {
    expect(refusal(() => parseSinceLast('first'))).toBe(
      'Invalid since: the only value is "last" (a diff against the last screen read). Leave it out for the whole screen.',
    );
    expect(refusal(() => parseTextMode('raw'))).toBe(
      'Invalid mode: the only value is "text" (the screen\'s texts only). Leave it out for the whole summary.',
    );
  });

  it('include_raw: false alone is no contradiction', () => {
    expect(treeAsk({ ...NONE, includeRaw: false })).toStrictEqual({ includeRaw: false });
  });

  it('what is not asked is not a key of the ask', () => {
    expect(Object.keys(treeAsk(NONE))).toEqual(['includeRaw']);
    expect(Object.keys(treeAsk({ ...NONE, since: 'last' }))).toEqual(['includeRaw', 'sinceLast']);
    expect(Object.keys(treeAsk({ ...NONE, mode: 'text' }))).toEqual(['includeRaw', 'textOnly']);
    expect(Object.keys(treeAsk({ ...NONE, rawOffset: 3 }))).toEqual(['includeRaw', 'rawOffset']);
    expect(Object.keys(treeAsk({ ...NONE, within: { ref: 'e1' } }))).toEqual(['includeRaw', 'within']);
  });
});
