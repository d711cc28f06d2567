import type { ErrorCode } from './errors.js';

export interface EvidenceRef {
  readonly artifact_id: string;
  /** Relative to the working directory, always `artifacts/<id>`: never an absolute host path. */
  readonly path: string;
  readonly uri: string;
}

/** The one shape of every answer, success or failure (docs/contract.md, "The envelope"). */
export interface Envelope<D extends object = Record<string, unknown>> {
  readonly ok: boolean;
  readonly operation_id: string;
  readonly tool: string;
  readonly data: D | Record<string, never>;
  readonly evidence: EvidenceRef | null;
  readonly error: { readonly code: ErrorCode; readonly message: string } | null;
}
