import { randomBytes, randomUUID } from 'node:crypto';
import { OPERATION_ID_LENGTH, operationIdOf } from '../../domain/envelope.js';
import type { RandomSource } from '../../domain/ports.js';

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Randomness from the OS CSPRNG: session ids must not be guessable by another local client. */
export class CryptoRandom implements RandomSource {
  uuid(): string {
    return randomUUID();
  }

  operationId(): string {
    return operationIdOf(randomBytes(OPERATION_ID_LENGTH));
  }

  token(length: number): string {
    if (!Number.isInteger(length) || length < 0) throw new RangeError('token length must be a non-negative integer');
    // 64 symbols: each byte's low 6 bits map uniformly, so there is no modulo bias.
    const bytes = randomBytes(length);
    let out = '';
    for (const byte of bytes) out += URL_SAFE[byte & 63];
    return out;
  }
}
