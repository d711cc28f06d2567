import { z } from 'zod';
import { OFFERED_SELECTOR_KEYS, type SelectorKey } from '../domain/selectors/selector.js';

/**
 * The shapes published to the model. They describe; the domain validates (docs/reference/contract.md, "Error codes"),
 * so every rule that matters also holds for a client that ignores these schemas.
 */
function selectorTerm() {
  return Object.fromEntries(OFFERED_SELECTOR_KEYS.map((key) => [key, z.string().optional()])) as Record<
    SelectorKey,
    z.ZodOptional<z.ZodString>
  >;
}

// `ref` goes alone; `within` is published loosely (an object of the same keys) to keep the catalogue small;
// the domain checks it.
// Only the keys ui_get_tree offers are listed: the hand-written ones (text_starts_with, class_name,
// resource_id_matches, state flags, instance…) are accepted all the same and documented for flow
// files (docs/reference/contract.md, "Selectors written by hand"), since the catalogue is paid on every connect.
export const selectorSchema = z
  .object({ ref: z.string().optional(), ...selectorTerm(), within: z.object({}).optional() })
  .describe("{ref} alone, or an entry's selector keys from ui_get_tree, unchanged");

/**
 * ui_scroll's optional container: any selector ui_tap accepts, checked by the same domain
 * validation (parseSelector). Published as a bare object: the keys are spelled out once on
 * ui_tap and ui_type_text, and repeating them a third time would cost the catalogue about 60
 * tokens for nothing the model does not already read there.
 */
export const containerSelectorSchema = z
  .object({})
  .optional()
  .describe("A scrollables entry's selector; default: the largest list that scrolls that way");

// Every parameter is described (a client may show the model nothing but tools/list), in words
// that are exact and short: each is paid on every connect, and session_id is on 18 tools.
export const sessionIdSchema = z.string().optional().describe("ui_session_open's id");

/** Publishes a zod schema as the JSON Schema of a tool's `inputSchema`, without empty `properties`. */
export function toInputJsonSchema(schema: z.ZodObject): { type: 'object'; [key: string]: unknown } {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { ...(withoutEmptyProperties(json) as Record<string, unknown>), type: 'object' };
}

/** `properties: {}` says nothing an object schema does not already say; the catalogue is sent on every connect. */
function withoutEmptyProperties(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutEmptyProperties);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value !== null && typeof value === 'object' && Object.keys(value).length === 0)
      continue;
    out[key] = withoutEmptyProperties(value);
  }
  return out;
}

/**
 * Every tool answers this envelope (docs/reference/contract.md, "The envelope"), success or failure (`data` is `{}` on failure).
 * Published as its required keys only: it is repeated on all twelve tools, and the property
 * shapes (spelled out in docs/reference/contract.md, "Tools") would triple the catalogue's size for no decision a
 * client makes. Still honest: every answer, success or failure, has exactly these keys.
 */
export const ENVELOPE_OUTPUT_SCHEMA = Object.freeze({
  type: 'object',
  required: ['ok', 'operation_id', 'tool', 'data', 'evidence', 'error'],
} as const);

export const observeSchema = z.boolean().optional().describe('false: answer without `after`');
