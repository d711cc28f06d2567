import { z } from 'zod';
import { SELECTOR_KEYS } from '../domain/selector.js';

/**
 * The shapes published to the model. They describe; the domain validates (CONTRACT §4),
 * so every rule that matters also holds for a client that ignores these schemas.
 */
function selectorTerm() {
  return Object.fromEntries(SELECTOR_KEYS.map((key) => [key, z.string().optional()])) as Record<
    (typeof SELECTOR_KEYS)[number],
    z.ZodOptional<z.ZodString>
  >;
}

// `within` is published loosely (same keys, one of them) to keep the catalogue small; the domain checks it.
export const selectorSchema = z
  .object({ ...selectorTerm(), within: z.record(z.string(), z.string()).optional() })
  .describe('Copy the `selector` of an entry in ui_get_tree `actions` unchanged: exactly one key, optional `within`.');

export const sessionIdSchema = z
  .string()
  .optional()
  .describe('The id from ui_session_open, while a flow is open; omit otherwise.');

/** Publishes a zod schema as the JSON Schema of a tool's `inputSchema`. */
export function toInputJsonSchema(schema: z.ZodObject): { type: 'object'; [key: string]: unknown } {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { ...json, type: 'object' };
}

/** CONTRACT §2: every tool answers this envelope, success or failure (`data` is `{}` on failure). */
export const ENVELOPE_OUTPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    operation_id: { type: 'string' },
    tool: { type: 'string' },
    data: { type: 'object' },
    // {artifact_id, path, uri} and {code, message}; kept untyped inside to keep tools/list small.
    evidence: { type: ['object', 'null'] },
    error: { type: ['object', 'null'] },
  },
  required: ['ok', 'operation_id', 'tool', 'data', 'evidence', 'error'],
} as const);
