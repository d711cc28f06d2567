/**
 * The envelope as it arrives over the wire, in any transport (stdio, HTTP, REST, the command line
 * for agents): loosely typed on purpose, so a test asserts its shape instead of trusting the
 * server's own type (src/domain/envelope.ts).
 */
export interface EnvelopeError {
  readonly code: string;
  readonly message: string;
}

export interface EvidenceRef {
  readonly artifact_id: string;
}

export interface WireEnvelope {
  readonly ok: boolean;
  readonly operation_id: string;
  readonly tool: string;
  readonly data: Record<string, unknown>;
  readonly evidence: EvidenceRef | null;
  readonly error: EnvelopeError | null;
}
