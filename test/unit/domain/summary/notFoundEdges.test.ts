/**
 * The not-found message (src/domain/summary/notFound.ts), the edges the first tests left open: an
 * offer whose value is under another key but is not the one asked adds no hint at all (the whole
 * message asserted), an entry ready to act on is preferred for the hint over an earlier one that is
 * not, and a label's white space is folded to single spaces and trimmed.
 */
import { describe, expect, it } from 'vitest';
import { notFoundMessage } from '../../../../src/domain/summary/notFound.js';
import type { ActionEntry } from '../../../../src/domain/tree/screen.js';

describe('notFoundMessage, its edges', () => {
  it('an offer under another key with another value adds no hint: the message names what was asked and the offers only', () => {
    const upButton: ActionEntry = { content_desc: 'Navigate up', bounds: [0, 84, 147, 147] };
    expect(notFoundMessage({ target: { key: 'text', value: 'Navigate' } }, [upButton])).toBe(
      "No visible element matched text 'Navigate' before timeout. The screen offers: 'Navigate up' (button).",
    );
    const labelled: ActionEntry = { resource_id: 'com.example.app:id/up', label: 'Up', bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'com.example.app:id/up' } }, [labelled])).toContain(
      'is its resource_id here, not its text: send {"resource_id":"com.example.app:id/up"}',
    );
    expect(notFoundMessage({ target: { key: 'text', value: 'Down' } }, [labelled])).toBe(
      "No visible element matched text 'Down' before timeout. The screen offers: 'Up' (button).",
    );
  });

  it('the hint names an entry ready to act on before an earlier one that is disabled, covered or ambiguous', () => {
    const ready: ActionEntry = { resource_id: 'com.example.app:id/go', label: 'Go', bounds: [0, 200, 10, 10] };
    for (const notReady of [
      { content_desc: 'Go', enabled: false, bounds: [0, 0, 10, 10] },
      { content_desc: 'Go', covered_by_keyboard: true, bounds: [0, 0, 10, 10] },
      { content_desc: 'Go', not_actionable: 'under_navigation_bar', bounds: [0, 0, 10, 10] },
    ] as ActionEntry[]) {
      const message = notFoundMessage({ target: { key: 'text', value: 'Go' } }, [notReady, ready]);
      expect(message, JSON.stringify(notReady)).toContain(
        '\'Go\' is the label of the element that {"resource_id":"com.example.app:id/go"} names',
      );
      // Alone, the entry that is not ready is still named.
      expect(notFoundMessage({ target: { key: 'text', value: 'Go' } }, [notReady])).toContain(
        '\'Go\' is its content_desc here, not its text: send {"content_desc":"Go"}',
      );
    }
  });

  it("folds a label's white space to single spaces and trims it", () => {
    const offer: ActionEntry = { text: '  Two \n\t lines  ', bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'X' } }, [offer])).toBe(
      "No visible element matched text 'X' before timeout. The screen offers: 'Two lines' (button).",
    );
  });
});
