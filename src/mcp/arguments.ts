import { parseSessionId } from '../domain/validation.js';

/**
 * Optional arguments: absent and JSON null both mean "not given" (models often send
 * null for an optional field). Anything else is validated by the domain.
 */
export function optionalSessionId(args: Readonly<Record<string, unknown>>): string | undefined {
  const raw = args.session_id;
  return raw === undefined || raw === null ? undefined : parseSessionId(raw);
}
