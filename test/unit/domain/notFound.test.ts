import { describe, expect, it } from 'vitest';
import { notFoundMessage } from '../../../src/domain/summary/notFound.js';
import type { ActionEntry, Role } from '../../../src/domain/tree/screen.js';

/** An entry as the summary writes it: the label is the selector's value, `button` and `enabled` are implied. */
function offer(label: string, role: Role = 'button', extra: Partial<ActionEntry> = {}): ActionEntry {
  return { text: label, ...(role !== 'button' ? { role } : {}), bounds: [0, 0, 10, 10], ...extra };
}

describe('notFoundMessage', () => {
  it('names what was asked and what the screen offers', () => {
    const message = notFoundMessage({ target: { key: 'text', value: 'Calender' } }, [
      offer('Calendar'),
      offer('Search…', 'input'),
    ]);
    expect(message).toBe(
      "No visible element matched text 'Calender' before timeout. The screen offers: 'Calendar' (button), 'Search…' (input).",
    );
  });

  it('with 40 candidates names 10 and ends "and 30 more."', () => {
    const offers = Array.from({ length: 40 }, (_, i) => offer(`Item ${i}`));
    const message = notFoundMessage({ target: { key: 'content_desc', value: 'X' } }, offers);
    expect(message.endsWith('and 30 more.')).toBe(true);
    expect(message.match(/\(button\)/g)).toHaveLength(10);
    expect(message).toContain("'Item 0' (button)");
    expect(message).toContain("'Item 9' (button) and 30 more.");
    expect(message).not.toContain('Item 10');
  });

  it('cuts labels at 40 characters with an ellipsis and flattens newlines', () => {
    const long = 'A very long label that goes on and on and on forever';
    const message = notFoundMessage({ target: { key: 'text', value: 'x' } }, [
      offer(long),
      offer('Historial\nTab 2 of 3'),
    ]);
    const quoted = [...message.matchAll(/'([^']*)' \(button\)/g)].map((m) => m[1]!);
    expect(quoted[0]).toBe(`${long.slice(0, 39)}…`);
    expect([...quoted[0]!].length).toBe(40);
    expect(quoted[1]).toBe('Historial Tab 2 of 3');
    expect(notFoundMessage({ target: { key: 'text', value: 'x' } }, [offer('x'.repeat(40))])).toContain(
      `'${'x'.repeat(40)}'`,
    );
  });

  it('names ready offers first: enabled, unambiguous, not under the keyboard', () => {
    const offers = [
      offer('Disabled', 'button', { enabled: false }),
      offer('Twin', 'button', { ambiguous: true }),
      offer('Hidden', 'button', { covered_by_keyboard: true }),
      offer('Ready', 'toggle'),
    ];
    const message = notFoundMessage({ target: { key: 'text', value: 'x' } }, offers);
    expect(message).toContain("offers: 'Ready' (toggle), 'Disabled' (button), 'Twin' (button), 'Hidden' (button).");
  });

  it('prefers the label to the selector value when the entry has one', () => {
    const labelled: ActionEntry = { resource_id: 'com.example.app:id/send', label: 'Send', bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'x' } }, [labelled])).toContain("'Send' (button)");
  });

  it('uses the selector value when an offer has no label', () => {
    const unlabelled: ActionEntry = { resource_id: 'com.example.app:id/fab', bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'x' } }, [unlabelled])).toContain(
      "'com.example.app:id/fab' (button)",
    );
  });

  it('describes within and escapes hostile values', () => {
    const message = notFoundMessage(
      {
        target: { key: 'text', value: 'Save\u202e\n' + 'z'.repeat(500) },
        within: { key: 'content_desc', value: 'Work profile' },
      },
      [],
    );
    expect(message).toMatch(
      /^No visible element matched text 'Save\\u202e\\u000az+…' within content_desc 'Work profile' before timeout\./,
    );
    expect(message).not.toMatch(/[\u202e\n]/);
    expect(message.length).toBeLessThan(300);
    expect(message).toContain('ui_get_tree');
  });
});

describe('notFoundMessage: the right value under another key', () => {
  const upButton: ActionEntry = { content_desc: 'Navigate up', bounds: [0, 84, 147, 147] };

  it('says which key to send: text for what the screen offers as content_desc, and the other way round', () => {
    expect(
      notFoundMessage({ target: { key: 'text', value: 'Navigate up' } }, [upButton, offer('Search settings', 'input')]),
    ).toBe(
      "No visible element matched text 'Navigate up' before timeout. 'Navigate up' is its content_desc here, not its text: send {\"content_desc\":\"Navigate up\"} (or its ref from ui_get_tree). The screen offers: 'Navigate up' (button), 'Search settings' (input).",
    );
    expect(notFoundMessage({ target: { key: 'content_desc', value: 'Apps' } }, [offer('Apps')])).toContain(
      '\'Apps\' is its text here, not its content_desc: send {"text":"Apps"} (or its ref from ui_get_tree).',
    );
  });

  it('keeps the entry’s within, names a labelled element by its selector, and sends to the ref when no selector names it', () => {
    const twin: ActionEntry = { content_desc: 'Delete', within: { text: 'Milk' }, bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'Delete' } }, [twin])).toContain(
      'send {"content_desc":"Delete","within":{"text":"Milk"}}',
    );
    const labelled: ActionEntry = { resource_id: 'com.example.app:id/send', label: 'Send', bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'Send' } }, [labelled])).toContain(
      '\'Send\' is the label of the element that {"resource_id":"com.example.app:id/send"} names: send that (or its ref from ui_get_tree).',
    );
    const unnamed: ActionEntry = { label: 'Send', ambiguous: true, bounds: [0, 0, 10, 10] };
    expect(notFoundMessage({ target: { key: 'text', value: 'Send' } }, [unnamed])).toContain(
      "'Send' is on the screen, but no selector names it alone: call ui_get_tree and send its ref.",
    );
  });

  it('adds nothing when no offer has the value, when the same key holds it, or when the selector has a within', () => {
    const plain = (selector: Parameters<typeof notFoundMessage>[0], offers: readonly ActionEntry[]) =>
      notFoundMessage(selector, offers).includes(' here, not its ');
    expect(plain({ target: { key: 'text', value: 'Navigate' } }, [upButton])).toBe(false);
    expect(notFoundMessage({ target: { key: 'content_desc', value: 'Navigate up' } }, [upButton])).not.toContain(
      'send {',
    );
    expect(
      plain({ target: { key: 'text', value: 'Navigate up' }, within: { key: 'text', value: 'Toolbar' } }, [upButton]),
    ).toBe(false);
  });
});
