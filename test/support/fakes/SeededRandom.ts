import { OPERATION_ID_LENGTH, operationIdOf } from '../../../src/domain/envelope.js';
import type { RandomSource } from '../../../src/domain/ports.js';

/** Deterministic randomness (mulberry32) with a real uuid v4 shape, operation ids of the real shape and URL-safe tokens. */
export class SeededRandom implements RandomSource {
  private state: number;

  constructor(seed = 42) {
    this.state = seed >>> 0;
  }

  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private int(max: number): number {
    return Math.floor(this.next() * max);
  }

  token(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[this.int(64)];
    return out;
  }

  operationId(): string {
    return operationIdOf(Uint8Array.from({ length: OPERATION_ID_LENGTH }, () => this.int(256)));
  }

  uuid(): string {
    const hex = (n: number) => Array.from({ length: n }, () => this.int(16).toString(16)).join('');
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[this.int(4)]}${hex(3)}-${hex(12)}`;
  }
}
