/**
 * A flow's inputs (docs/guide/usage.md, "Flow inputs"): values the file names instead of carrying
 * them, such as what a user types. The file declares each input (`"inputs": {"email": {},
 * "password": {"secret": true}}`) and uses it as `${email}` inside any string argument; the run
 * gives the values with `--input NAME=VALUE` or `ANDROID_MCP_INPUT_<NAME>` (the option wins).
 *
 * - Every `${…}` of the file must name a declared input: a typo is a file problem, found before
 *   anything starts, never typed as it is.
 * - A run with a missing value is refused before anything starts, naming every missing input.
 * - A secret's value never leaves the runner but in the call that types it: the report, the
 *   readable summary and the server's log tail have it replaced by `[secret input NAME]`.
 */

/** An input's name: a lowercase identifier, so that its environment variable is ANDROID_MCP_INPUT_ + its upper case. */
export const INPUT_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const PLACEHOLDER = /\$\{([^}]*)\}/g;
export const INPUT_ENV_PREFIX = 'ANDROID_MCP_INPUT_';

export interface InputDeclaration {
  readonly secret?: boolean;
  readonly description?: string;
}

export class FlowInputError extends Error {
  override readonly name = 'FlowInputError';
}

/** The names `${…}` refers to in a value (any depth). */
export function placeholdersIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/** `value` with every `${name}` replaced by its input's value. */
export function withInputs<T>(value: T, values: Readonly<Record<string, string>>): T {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withInputs(item, values)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withInputs(item, values)])) as T;
  return value;
}

/** The environment variable that gives input `name`. */
export function inputVariable(name: string): string {
  return `${INPUT_ENV_PREFIX}${name.toUpperCase()}`;
}

/** `NAME=VALUE` options as a record; throws FlowInputError on a malformed one. */
export function parseInputOptions(options: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const option of options) {
    const at = option.indexOf('=');
    const name = at < 0 ? option : option.slice(0, at);
    if (at < 0 || !INPUT_NAME.test(name))
      throw new FlowInputError(
        `--input takes NAME=VALUE with NAME a declared input of the flow (lowercase letters, digits, _), not ${JSON.stringify(name.slice(0, 40))}`,
      );
    values[name] = option.slice(at + 1);
  }
  return values;
}

/**
 * The value of every declared input, from the options, else the environment; throws
 * FlowInputError listing every missing one (and any option the flow does not declare).
 */
export function resolveInputs(
  declared: Readonly<Record<string, InputDeclaration>>,
  given: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
  source: string,
): Record<string, string> {
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length > 0)
    throw new FlowInputError(
      `${source} declares no input ${unknown.join(', ')}; its inputs are: ${Object.keys(declared).join(', ') || 'none'}`,
    );
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of Object.keys(declared)) {
    const value = given[name] ?? env[inputVariable(name)];
    if (value === undefined) missing.push(name);
    else values[name] = value;
  }
  if (missing.length > 0)
    throw new FlowInputError(
      `${source} needs inputs it was not given: ${missing.join(', ')}. Give each with --input NAME=VALUE or ` +
        `${INPUT_ENV_PREFIX}<NAME> (${missing.map(inputVariable).join(', ')}); nothing was started.`,
    );
  return values;
}

/** Replaces every secret input's value in `value` (any depth) by `[secret input NAME]`. */
export function redactSecrets<T>(value: T, secrets: readonly (readonly [string, string])[]): T {
  const live = secrets.filter(([, secret]) => secret !== '');
  if (live.length === 0) return value;
  const redact = (text: string): string =>
    live.reduce((out, [name, secret]) => out.split(secret).join(`[secret input ${name}]`), text);
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return redact(item);
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === 'object' && item !== null)
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    return item;
  };
  return walk(value) as T;
}
