import type { z } from 'zod';
import type { HarnessServices } from '../application/HarnessServices.js';
import type { OperationContext, Outcome } from '../application/OperationRunner.js';
import type { ToolsetName } from '../domain/toolsets.js';

/** MCP tool annotations (hints for clients; read-only for the four observers). */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  /** Only meaningful when readOnlyHint is false (MCP), so observers omit it. */
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: false;
}

/**
 * One argument, declared once: what tools/list shows the model, and the domain's reading of what
 * it sent. The schema describes; `parse` decides, so a client that ignores the schema meets the
 * same rules and a malformed value comes back as a typed INVALID_* envelope, not a protocol error.
 */
export interface Argument<T> {
  /** Published in the tool's inputSchema under the argument's name. */
  readonly schema: z.ZodType;
  /** An absent argument arrives as undefined, JSON null as null; throws a HarnessError (INVALID_*). */
  readonly parse: (raw: unknown) => T;
}

export type ArgumentShape = Readonly<Record<string, Argument<unknown>>>;

/** What a handler receives: each declared argument as its parse made it. */
export type Input<A extends ArgumentShape> = { readonly [K in keyof A]: ReturnType<A[K]['parse']> };

/** What every tool shows: to the model (tools/list) and to a reader (the generated tool tables). */
export interface ToolFacts {
  readonly name: string;
  /** Which toolset publishes it; `core` is the contract's twelve, always on. Not sent to the client. */
  readonly toolset: ToolsetName;
  readonly title: string;
  readonly description: string;
  /** The published arguments: every declared argument's schema, in declaration order. */
  readonly inputSchema: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** What `data` holds on success, for the docs (not sent: the catalogue is paid on every connect). */
  readonly answer: string;
}

/** A call whose every argument passed the domain's checks: it runs with what was parsed. */
export interface PreparedCall {
  /** The UI session the call names, if any (what it writes is held while that session lives). */
  readonly sessionId: string | undefined;
  run(context: OperationContext): Promise<Outcome>;
}

/** A tool bound to the services: what tools/call, the REST mirror and tasks run (runTool). */
export interface ToolDefinition extends ToolFacts {
  /** Parses every argument (throws the typed HarnessError); reaches no service. Names are checked before. */
  prepare(args: Readonly<Record<string, unknown>>): PreparedCall;
}

/** A tool as written in its file, before any service exists. */
export interface ToolDeclaration extends ToolFacts {
  /** The same parse as `prepare`, for calls that are only checked (a flow file); throws a HarnessError. */
  check(args: Readonly<Record<string, unknown>>): void;
  bind(services: HarnessServices): ToolDefinition;
}

export const OBSERVER: ToolAnnotations = Object.freeze({ readOnlyHint: true, openWorldHint: false });

/**
 * Acting tools: readOnlyHint stays explicit (clients gate on it), destructiveHint: false differs
 * from the MCP default (true); idempotentHint is sent only when true, false being its default.
 */
export function actor(idempotent: boolean): ToolAnnotations {
  return Object.freeze({
    readOnlyHint: false,
    destructiveHint: false,
    ...(idempotent ? { idempotentHint: true } : {}),
    openWorldHint: false,
  });
}
