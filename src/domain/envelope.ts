import type { ErrorCode } from './errors.js';

/**
 * The evidence an answer names: the file's id alone. The file is that name in the evidence
 * directory, `artifact://<artifact_id>` over MCP and `GET /artifacts/<artifact_id>` over REST, so
 * a path or a uri beside it would only repeat the name in every answer a model reads.
 */
export interface EvidenceRef {
  readonly artifact_id: string;
}

/** The one shape of every answer, success or failure (docs/reference/contract.md, "The envelope"). */
export interface Envelope<D extends object = Record<string, unknown>> {
  readonly ok: boolean;
  readonly operation_id: string;
  readonly tool: string;
  readonly data: D | Record<string, never>;
  readonly evidence: EvidenceRef | null;
  readonly error: { readonly code: ErrorCode; readonly message: string } | null;
}

/** Crockford's base32 in lowercase: no i, l, o or u, so an id read aloud or copied by hand stays one id. */
export const OPERATION_ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 12 characters of 5 bits: 60 bits. */
export const OPERATION_ID_LENGTH = 12;
export const OPERATION_ID_PATTERN = /^[0-9a-hjkmnp-tv-z]{12}$/;

/**
 * An operation id from OPERATION_ID_LENGTH random bytes: each byte's low 5 bits pick a character
 * (256 is a multiple of 32, so every character is equally likely).
 */
export function operationIdOf(bytes: Uint8Array): string {
  if (bytes.length !== OPERATION_ID_LENGTH) throw new RangeError(`an operation id takes ${OPERATION_ID_LENGTH} bytes`);
  let id = '';
  for (const byte of bytes) id += OPERATION_ID_ALPHABET[byte & 31];
  return id;
}
