import { describe, expect, it } from 'vitest';
import { describeBound, isBounded, planPrune, type StoredEvidence } from '../../../../src/domain/evidence/retention.js';
import { isWithheld, SecureScreenError, SECURE_WINDOW_WITHHELD } from '../../../../src/domain/evidence/secureScreen.js';

const MB = 1024 * 1024;
const files = (...bytes: number[]): StoredEvidence[] => bytes.map((b, i) => ({ name: `f${i}`, bytes: b }));
const total = (list: readonly StoredEvidence[]) => list.reduce((sum, f) => sum + f.bytes, 0);
const none = () => false;

describe('the retention bound in words', () => {
  it('is bounded when either limit is set', () => {
    expect(isBounded({ maxFiles: null, maxBytes: null })).toBe(false);
    expect(isBounded({ maxFiles: 0, maxBytes: null })).toBe(true);
    expect(isBounded({ maxFiles: null, maxBytes: 0 })).toBe(true);
  });

  it('says files (one file), MB to two decimals, joined by "or"', () => {
    expect(describeBound({ maxFiles: 500, maxBytes: 200 * MB })).toBe('500 files or 200 MB');
    expect(describeBound({ maxFiles: 1, maxBytes: null })).toBe('1 file');
    expect(describeBound({ maxFiles: 3, maxBytes: null })).toBe('3 files');
    expect(describeBound({ maxFiles: null, maxBytes: 0.3 * MB })).toBe('0.3 MB');
    expect(describeBound({ maxFiles: null, maxBytes: 1234567 })).toBe('1.18 MB');
    expect(describeBound({ maxFiles: null, maxBytes: null })).toBe('');
  });
});

describe('planPrune: the oldest go first until both limits fit', () => {
  it('nothing goes when the directory fits, exactly at either limit', () => {
    const list = files(10, 10, 10);
    expect(planPrune(list, 30, { maxFiles: 3, maxBytes: 30 }, none)).toEqual([]);
    expect(planPrune(list, 30, { maxFiles: null, maxBytes: null }, none)).toEqual([]);
  });

  it('one past the count removes the oldest alone', () => {
    expect(planPrune(files(10, 10, 10), 30, { maxFiles: 2, maxBytes: null }, none)).toEqual(['f0']);
  });

  it('the byte limit counts what each removal frees', () => {
    const list = files(5, 20, 10, 10);
    expect(planPrune(list, total(list), { maxFiles: null, maxBytes: 20 }, none)).toEqual(['f0', 'f1']);
    expect(planPrune(list, total(list), { maxFiles: null, maxBytes: 40 }, none)).toEqual(['f0']);
    expect(planPrune(list, total(list), { maxFiles: null, maxBytes: 44 }, none)).toEqual(['f0']);
    expect(planPrune(list, total(list), { maxFiles: null, maxBytes: 45 }, none)).toEqual([]);
  });

  it('both limits must fit: the stricter decides', () => {
    const list = files(10, 10, 10, 10);
    expect(planPrune(list, 40, { maxFiles: 3, maxBytes: 20 }, none)).toEqual(['f0', 'f1']);
    expect(planPrune(list, 40, { maxFiles: 1, maxBytes: 30 }, none)).toEqual(['f0', 'f1', 'f2']);
  });

  it('a held file stays and still counts; when the held alone exceed, every other goes', () => {
    const list = files(10, 10, 10);
    const held = (name: string) => name === 'f0';
    expect(planPrune(list, 30, { maxFiles: 2, maxBytes: null }, held)).toEqual(['f1']);
    expect(planPrune(list, 30, { maxFiles: 0, maxBytes: null }, held)).toEqual(['f1', 'f2']);
  });
});

describe('a secure screen', () => {
  it('withheld evidence is the one marker, nothing else', () => {
    expect(isWithheld(SECURE_WINDOW_WITHHELD)).toBe(true);
    expect(isWithheld({ withheld: 'other' })).toBe(false);
    expect(isWithheld(null)).toBe(false);
    expect(isWithheld('secure_window')).toBe(false);
  });

  it('the refusal names the window, or says a window when it has no component', () => {
    const named = new SecureScreenError('com.bank/.Login');
    expect(named.code).toBe('EVIDENCE_WRITE_FAILED');
    expect(named.window).toBe('com.bank/.Login');
    expect(named.message).toBe(
      'The screen is secure: the window of com.bank/.Login sets FLAG_SECURE, and Android withholds the pixels of a secure screen from every screenshot. ' +
        'Read it with ui_get_tree instead; actions on it still work and answer screen_secure: true in place of a screenshot.',
    );
    expect(new SecureScreenError(null).message).toMatch(/^The screen is secure: a window on it sets FLAG_SECURE/);
    const cause = new Error('screencap failed');
    expect(new SecureScreenError(null, { cause }).cause).toBe(cause);
  });
});
