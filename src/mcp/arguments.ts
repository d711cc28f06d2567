import type { Selector } from '../domain/selectors/selector.js';
import { parseFlag, parseRawOffset, parseSelector, parseSessionId } from '../domain/validation.js';

/**
 * Optional arguments: absent and JSON null both mean "not given" (models often send
 * null for an optional field). Anything else is validated by the domain.
 */
export function optionalSessionId(args: Readonly<Record<string, unknown>>): string | undefined {
  const raw = args.session_id;
  return raw === undefined || raw === null ? undefined : parseSessionId(raw);
}

/** An optional boolean: absent or null is false, true/false as sent, anything else INVALID_ARGUMENT. */
export function optionalFlag(args: Readonly<Record<string, unknown>>, name: string): boolean {
  const raw = args[name];
  return raw === undefined || raw === null ? false : parseFlag(raw, name);
}

/** `raw_offset`: absent or null is undefined, a whole number from 0 as sent, anything else INVALID_ARGUMENT. */
export function optionalRawOffset(args: Readonly<Record<string, unknown>>): number | undefined {
  const raw = args.raw_offset;
  return raw === undefined || raw === null ? undefined : parseRawOffset(raw);
}

/** An optional selector (ui_scroll's container): absent or null is none, anything else must be a valid selector. */
export function optionalSelector(args: Readonly<Record<string, unknown>>): Selector | undefined {
  const raw = args.selector;
  return raw === undefined || raw === null ? undefined : parseSelector(raw);
}

/** `observe` (acting tools): absent or null is true (answer `after`), else a JSON boolean. */
export function observeFlag(args: Readonly<Record<string, unknown>>): boolean {
  const raw = args.observe;
  return raw === undefined || raw === null ? true : parseFlag(raw, 'observe');
}
