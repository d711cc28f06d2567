/** Which selectors visual text can answer, and how they compare (docs/reference/summary.md, "Visual refs"). */
import { describe, expect, it } from 'vitest';
import type { Selector } from '../../../../src/domain/selectors/selector.js';
import { visualTextTest } from '../../../../src/domain/visual/visualText.js';

const sel = (key: Selector['target']['key'], value: string, rest: Partial<Selector> = {}): Selector => ({
  target: { key, value },
  ...rest,
});

describe('visualTextTest', () => {
  it('text equals and text_contains contains, both in NFKC, lower case, letters and digits only', () => {
    const exact = visualTextTest(sel('text', 'Level 1'))!;
    expect(exact('LEVEL 1')).toBe(true);
    expect(exact('LEVEL-1!')).toBe(true);
    expect(exact('LEVEL 12')).toBe(false);
    const part = visualTextTest(sel('text_contains', 'start'))!;
    expect(part('PRESS START')).toBe(true);
    expect(part('PRESS STAR')).toBe(false);
  });

  it('keys only the tree has, a context, a state, an instance or a value with no letter never look at pixels', () => {
    expect(visualTextTest(sel('content_desc', 'Play'))).toBeNull();
    expect(visualTextTest(sel('id', 'play'))).toBeNull();
    expect(visualTextTest(sel('text', 'Play', { within: { key: 'id', value: 'menu' } }))).toBeNull();
    expect(visualTextTest(sel('text', 'Play', { states: { checked: true } }))).toBeNull();
    expect(visualTextTest(sel('text', 'Play', { instance: 1 }))).toBeNull();
    expect(visualTextTest(sel('text', '…'))).toBeNull();
  });
});
