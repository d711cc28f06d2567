import type { ActedElement } from '../domain/summary/actedElement.js';
import type { Envelope, EvidenceRef } from '../domain/envelope.js';
import { HarnessError } from '../domain/errors.js';
import { isWithheld, type WithheldEvidence } from '../domain/evidence/secureScreen.js';
import type { Logger, RandomSource } from '../domain/ports.js';
import { sanitizeMessage } from '../domain/sanitize.js';

/** What a use case hands back on success. */
export interface Outcome {
  readonly data: object;
  /** The screenshot, or on a secure screen the statement that Android withheld it (the answer says `screen_secure: true`). */
  readonly evidence?: EvidenceRef | WithheldEvidence | null;
  /** A downscaled PNG the MCP layer returns as an image block (screen_capture only). */
  readonly image?: Buffer;
  /** For the run's trace only, never the answer: what a person needs to see the call (TraceRecorder). */
  readonly trace?: TraceFacts;
}

/** Facts a trace keeps beside the answer: each offered entry's bounds by ref, `[left, top, width, height]`. */
export interface TraceFacts {
  readonly bounds?: Readonly<Record<string, readonly [number, number, number, number]>>;
  /** The element an action pressed, `[left, top, width, height]`. */
  readonly acted?: readonly [number, number, number, number];
  /** The element an action acted on, as the server resolved it (src/domain/summary/actedElement.ts). */
  readonly element?: ActedElement;
}

/** The identity of one call, known to every use case (for the gate's busy message and the logs). */
export interface OperationContext {
  readonly operationId: string;
  readonly tool: string;
}

/** A typed failure that happened after reaching the device, with its `failure-<label>` screenshot. */
export class EvidencedError extends HarnessError {
  constructor(
    readonly original: HarnessError,
    readonly evidence: EvidenceRef,
  ) {
    super(original.code, original.message, { cause: original });
  }
}

/** Runs each call in a scope that knows what it writes (EvidenceHolds). */
export interface CallScope {
  during<T>(sessionId: string | undefined, body: () => Promise<T>): Promise<T>;
}

export interface OperationResult {
  readonly envelope: Envelope;
  readonly image?: Buffer;
  readonly trace?: TraceFacts;
}

/**
 * The single error boundary: every call gets a fresh operation id and comes back as the
 * one envelope (docs/reference/contract.md, "The envelope"). Anything unclassified becomes INTERNAL_ERROR, logged to
 * stderr with its cause and never shown to the model beyond the operation id.
 */
export class OperationRunner {
  constructor(
    private readonly random: RandomSource,
    private readonly logger: Logger,
    private readonly scope: CallScope | null = null,
  ) {}

  /** `sessionId`: the UI session the call names, if any (what it writes is held while that session lives). */
  async run(
    tool: string,
    body: (context: OperationContext) => Promise<Outcome>,
    sessionId?: string,
  ): Promise<OperationResult> {
    const operationId = this.random.operationId();
    try {
      const context = { operationId, tool };
      const outcome = await (this.scope ? this.scope.during(sessionId, () => body(context)) : body(context));
      // A secure screen: no evidence file, and the answer says why (docs/reference/contract.md, "Secure screens").
      const withheld = isWithheld(outcome.evidence);
      const envelope: Envelope = {
        ok: true,
        operation_id: operationId,
        tool,
        data: withheld
          ? { ...(outcome.data as Record<string, unknown>), screen_secure: true }
          : (outcome.data as Record<string, unknown>),
        evidence: withheld ? null : ((outcome.evidence as EvidenceRef | null | undefined) ?? null),
        error: null,
      };
      return {
        envelope,
        ...(outcome.image ? { image: outcome.image } : {}),
        ...(outcome.trace ? { trace: outcome.trace } : {}),
      };
    } catch (error) {
      return { envelope: this.failure(tool, operationId, error) };
    }
  }

  private failure(tool: string, operationId: string, error: unknown): Envelope {
    const known = error instanceof HarnessError && error.code !== 'INTERNAL_ERROR';
    if (known) {
      this.logger.info('operation failed', { operation_id: operationId, tool, code: error.code });
      // Causes may quote device or driver output (even typed text); keep them below info.
      if (error.cause !== undefined)
        this.logger.debug('operation failure cause', { operation_id: operationId, cause: describe(error.cause) });
    } else {
      this.logger.error('unexpected failure', { operation_id: operationId, tool, cause: describe(error) });
    }
    return {
      ok: false,
      operation_id: operationId,
      tool,
      data: {},
      evidence: error instanceof EvidencedError ? error.evidence : null,
      error: known
        ? { code: error.code, message: sanitizeMessage(error.message) }
        : {
            code: 'INTERNAL_ERROR',
            message: `An unexpected error occurred; see the server log (operation ${operationId}).`,
          },
    };
  }
}

function describe(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
