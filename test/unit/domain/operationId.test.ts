import { describe, expect, it } from 'vitest';
import {
  OPERATION_ID_ALPHABET,
  OPERATION_ID_LENGTH,
  OPERATION_ID_PATTERN,
  operationIdOf,
} from '../../../src/domain/envelope.js';
import { SeededRandom } from '../../support/fakes/SeededRandom.js';

describe('operation ids', () => {
  it('use Crockford base32 in lowercase: digits and letters without i, l, o, u', () => {
    expect(OPERATION_ID_ALPHABET).toBe('0123456789abcdefghjkmnpqrstvwxyz');
    expect(new Set(OPERATION_ID_ALPHABET).size).toBe(32);
    expect(OPERATION_ID_ALPHABET).not.toMatch(/[ilou]/);
  });

  it("map each byte's low 5 bits to one character", () => {
    expect(operationIdOf(Uint8Array.from([0, 1, 9, 10, 17, 18, 20, 21, 26, 27, 31, 32]))).toBe('019ahjmntvz0');
    // The high bits do not count: 0xff is 31, 0xe0 is 0.
    expect(operationIdOf(new Uint8Array(OPERATION_ID_LENGTH).fill(0xff))).toBe('zzzzzzzzzzzz');
    expect(operationIdOf(new Uint8Array(OPERATION_ID_LENGTH).fill(0xe0))).toBe('000000000000');
  });

  it('take exactly 12 bytes (60 bits), no more and no less', () => {
    expect(() => operationIdOf(new Uint8Array(11))).toThrow(RangeError);
    expect(() => operationIdOf(new Uint8Array(13))).toThrow(RangeError);
  });

  it('match the published pattern, and the pattern refuses what is not one', () => {
    const random = new SeededRandom(7);
    const ids = Array.from({ length: 10_000 }, () => random.operationId());
    for (const id of ids) expect(id).toMatch(OPERATION_ID_PATTERN);
    expect(new Set(ids).size).toBe(10_000);
    for (const bad of ['0123456789a', '0123456789abc', '0123456789aI', '0123456789al', 'o123456789ab', 'u123456789ab'])
      expect(bad).not.toMatch(OPERATION_ID_PATTERN);
    expect('3f1c2b9a-1d2e-4c3b-9a8f-0e1d2c3b4a59').not.toMatch(OPERATION_ID_PATTERN);
  });
});
