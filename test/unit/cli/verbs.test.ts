/**
 * The agents' command line turns words into one tool call each; a target is never a position, and
 * an exit code tells a shell agent what kind of failure it met without reading the message.
 */
import { describe, expect, it } from 'vitest';
import { CliUsageError, exitCodeFor, parseTarget, parseVerb } from '../../../src/cli/verbs.js';

describe('cli verbs', () => {
  it('maps each verb to its tool and arguments', () => {
    expect(parseVerb(['tap', 'e12'])).toEqual({
      kind: 'tool',
      tool: 'ui_tap',
      args: { selector: { ref: 'e12' } },
      session: 'attach',
    });
    expect(parseVerb(['tap', 'All apps', '--long'])).toMatchObject({
      args: { selector: { text: 'All apps' }, long_press: true },
    });
    expect(parseVerb(['type', 'input_hint=Search settings', 'wifi', 'calling'])).toMatchObject({
      tool: 'ui_type_text',
      args: { selector: { input_hint: 'Search settings' }, text: 'wifi calling' },
    });
    expect(parseVerb(['scroll', 'down', 'id=list'])).toMatchObject({
      tool: 'ui_scroll',
      args: { direction: 'down', selector: { id: 'list' } },
    });
    expect(parseVerb(['tree', '--diff', '--text'])).toMatchObject({
      tool: 'ui_get_tree',
      args: { since: 'last', mode: 'text' },
      session: 'none',
    });
    expect(parseVerb(['open', 'com.android.settings'])).toMatchObject({
      tool: 'app_open',
      args: { package_name: 'com.android.settings' },
    });
    expect(parseVerb(['session', 'open'])).toMatchObject({ tool: 'ui_session_open', session: 'open' });
    expect(parseVerb(['session', 'close'])).toMatchObject({ tool: 'ui_session_close', session: 'close' });
    expect(parseVerb(['trace', 'view'])).toEqual({ kind: 'trace-view', dir: null });
    expect(parseVerb(['stop'])).toEqual({ kind: 'stop' });
  });

  it('reads a target as a ref, a selector key, JSON or a label, and passes a position on for the server to refuse', () => {
    expect(parseTarget('e1h')).toEqual({ ref: 'e1h' });
    expect(parseTarget('id=search_src_text')).toEqual({ id: 'search_src_text' });
    expect(parseTarget('text_contains=torage')).toEqual({ text_contains: 'torage' });
    // An unknown key is a label with an equals sign, not a new selector key.
    expect(parseTarget('x=540')).toEqual({ text: 'x=540' });
    expect(parseTarget('{"text":"OK","within":{"id":"dialog"}}')).toEqual({ text: 'OK', within: { id: 'dialog' } });
    // The CLI does not judge a selector: the server's own parse refuses a position (INVALID_SELECTOR).
    expect(parseTarget('{"x":1,"y":2}')).toEqual({ x: 1, y: 2 });
    expect(() => parseTarget('{not json')).toThrow(CliUsageError);
    expect(parseTarget('[1,2]')).toEqual({ text: '[1,2]' });
  });

  it('refuses malformed commands before anything starts', () => {
    for (const words of [
      ['swipe'],
      ['tap'],
      ['tap', 'a', 'b'],
      ['type', 'e1'],
      ['scroll', 'sideways'],
      ['session'],
      ['back', 'now'],
      ['trace', 'export'],
    ])
      expect(() => parseVerb(words), words.join(' ')).toThrow(CliUsageError);
  });

  it('gives each class of error its own exit code', () => {
    expect(exitCodeFor(null)).toBe(0);
    expect(exitCodeFor('INVALID_SELECTOR')).toBe(2);
    expect(exitCodeFor('UI_ELEMENT_NOT_FOUND')).toBe(3);
    expect(exitCodeFor('UI_ELEMENT_AMBIGUOUS')).toBe(3);
    expect(exitCodeFor('STALE_REF')).toBe(3);
    expect(exitCodeFor('EMULATOR_BUSY')).toBe(4);
    expect(exitCodeFor('EMULATOR_UNAVAILABLE')).toBe(5);
    expect(exitCodeFor('OPERATION_TIMEOUT')).toBe(6);
    expect(exitCodeFor('INVALID_UI_SESSION')).toBe(7);
    expect(exitCodeFor('INTERNAL_ERROR')).toBe(1);
  });
});
