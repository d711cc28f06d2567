import { z } from 'zod';
import { parseActionTarget, type ActionTarget } from '../domain/refs/refTarget.js';
import type { Selector } from '../domain/selectors/selector.js';
import {
  parseFlag,
  parsePackageName,
  parseSelector,
  parseSessionId,
  POSITION_OUTPUT_FLAG,
  type PackageName,
} from '../domain/validation.js';
import { containerSelectorSchema, observeSchema, selectorSchema, sessionIdSchema } from './schemas.js';
import type { Argument } from './ToolDefinition.js';

/** An argument from its published schema and the domain's parse of it. */
export function argument<T>(schema: z.ZodType, parse: (raw: unknown) => T): Argument<T> {
  return Object.freeze({ schema, parse });
}

/**
 * Optional arguments: absent and JSON null both mean "not given" (models often send null for an
 * optional field); anything else goes to the domain's parse.
 */
export function optional<T>(parse: (raw: unknown) => T): (raw: unknown) => T | undefined {
  return (raw) => (raw === undefined || raw === null ? undefined : parse(raw));
}

/** The UI session a call runs in (ui_session_open's id); absent: the call runs on its own. */
export const sessionIdArgument: Argument<string | undefined> = argument(sessionIdSchema, optional(parseSessionId));

/** `observe` (acting tools): absent or null is true (answer `after`), else a JSON boolean. */
export const observeArgument: Argument<boolean> = argument(observeSchema, (raw) =>
  raw === undefined || raw === null ? true : parseFlag(raw, 'observe'),
);

/** An optional on/off argument: absent or null is false; "yes" or "true" is refused, never read as off. */
export function flagArgument(name: string, description: string): Argument<boolean> {
  return argument(z.boolean().optional().describe(description), (raw) =>
    raw === undefined || raw === null ? false : parseFlag(raw, name),
  );
}

/** A flag whose absence differs from false (ui_get_tree's include_raw with raw_offset). */
export function flagAsSentArgument(name: string, description: string): Argument<boolean | undefined> {
  return argument(
    z.boolean().optional().describe(description),
    optional((raw) => parseFlag(raw, name)),
  );
}

/** `include_bounds`: the entries' bounds in the answer, for auditing (the one position word accepted). */
export const includeBoundsArgument: Argument<boolean> = flagArgument(
  POSITION_OUTPUT_FLAG,
  "true: each entry's bounds [left, top, width, height], for auditing only",
);

/** What ui_tap and ui_type_text act on: a selector or `{ref}`. */
export const targetArgument: Argument<ActionTarget> = argument(selectorSchema, parseActionTarget);

/** A selector without the ref form (ui_wait's). */
export const selectorArgument: Argument<Selector> = argument(
  selectorSchema.describe("An entry's selector keys from ui_get_tree, unchanged (no ref)"),
  parseSelector,
);

/** ui_scroll's optional container: any selector ui_tap accepts, by the same parse. */
export const containerArgument: Argument<Selector | undefined> = argument(
  containerSelectorSchema,
  optional(parseSelector),
);

export function packageArgument(schema: z.ZodType): Argument<PackageName> {
  return argument(schema, parsePackageName);
}

/** An optional package (app_open_link, app_crashes): absent or null is none. */
export function optionalPackageArgument(schema: z.ZodType): Argument<PackageName | null> {
  return argument(schema, (raw) => optional(parsePackageName)(raw) ?? null);
}
