import { describe, expect, it } from 'vitest';
import { sanitizeMessage, withoutText } from '../../../../src/domain/sanitize.js';

describe('sanitizeMessage, at its edges', () => {
  it('only a URL whose scheme is file: is a host path; file: later in a URL is kept', () => {
    expect(sanitizeMessage('see http://127.0.0.1:4723/file:x now')).toBe('see http://127.0.0.1:4723/file:x now');
    expect(sanitizeMessage('see FILE:///tmp/x now')).toBe('see <path> now');
  });

  it('a foreign message is trimmed after its cut', () => {
    expect(sanitizeMessage('  one \n', 'foreign')).toBe('one');
  });

  it('a harness message of exactly 1000 characters is whole', () => {
    const exact = 'x'.repeat(1000);
    expect(sanitizeMessage(exact)).toBe(exact);
  });
});

describe('withoutText, at its edges', () => {
  it('nothing typed: even a frozen error comes back as it is', () => {
    const frozen = Object.freeze(new Error('typed nothing'));
    expect(withoutText(frozen, '')).toBe(frozen);
  });

  it('the JSON-escaped form is cut without its quotes too', () => {
    const error = new Error('body {"value":a\\"b} refused');
    expect((withoutText(error, 'a"b') as Error).message).toBe('body {"value":<typed text>} refused');
  });

  it('a value that is neither a string nor an object is left alone', () => {
    expect(withoutText(42, 'x')).toBe(42);
    expect(withoutText(null, 'x')).toBeNull();
    expect(withoutText(undefined, 'x')).toBeUndefined();
  });

  it('a frozen error without a name becomes a plain Error', () => {
    const out = withoutText(Object.freeze({ message: 'typed x here' }), 'x') as Error;
    expect(out).toBeInstanceOf(Error);
    expect(out.name).toBe('Error');
    expect(out.message).toBe('typed <typed text> here');
  });
});
