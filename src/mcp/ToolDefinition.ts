import type { z } from 'zod';
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
 * One tool as data: its contract (name, title, description for a model, input schema,
 * annotations) and what it does. Knows nothing of the MCP SDK; the server publishes it.
 *
 * `inputSchema` is what the model is shown. `execute` receives the raw arguments and runs
 * the domain's own validation on them first, so a malformed value comes back as a typed
 * INVALID_* envelope rather than a generic protocol error.
 */
export interface ToolDefinition {
  readonly name: string;
  /** Which toolset publishes it; `core` is the contract's twelve, always on. Not sent to the client. */
  readonly toolset: ToolsetName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject;
  readonly annotations: ToolAnnotations;
  execute(args: Readonly<Record<string, unknown>>, context: OperationContext): Promise<Outcome>;
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
