/**
 * The depth bound on every JSON value a transport accepts (HTTP `/mcp`, the REST and task routes,
 * stdio), checked once, right after the bytes are parsed and before anything else touches the value.
 *
 * Why at the edge: V8's JSON.parse is iterative and reads any depth, but JSON.stringify, zod and
 * every recursive walk after it are not; a 10 KB body nesting 5,000 arrays then ends in "Maximum
 * call stack size exceeded" wherever it is first re-serialised (the MCP SDK on `/mcp`, the trace
 * writer on REST), as an internal error. No legitimate request comes near the bound: a tools/call
 * with a selector inside `within` is 6 levels deep. Sizes are bounded before parsing (the HTTP body
 * and the stdio line limits); this bounds the shape.
 */

/** Containers (objects and arrays) nested in one another, the outermost counted as 1. */
export const MAX_JSON_DEPTH = 64;

/** Where a value first passes the bound: the keys and indexes down to it. */
export type JsonPath = readonly (string | number)[];

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number | null;
  readonly parent: Frame | null;
}

/**
 * The path to the first container past `maxDepth`, or null when the value stays within it.
 * Iterative on purpose: a recursive walk would overflow on the very values it must refuse.
 */
export function pathPastDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonPath | null {
  const stack: Frame[] = [{ value, depth: 1, key: null, parent: null }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const current = frame.value;
    if (typeof current !== 'object' || current === null) continue;
    if (frame.depth > maxDepth) return pathOf(frame);
    const entries: [string | number, unknown][] = Array.isArray(current)
      ? current.map((item, index) => [index, item])
      : Object.entries(current);
    for (const [key, child] of entries) {
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return null;
}

function pathOf(frame: Frame): JsonPath {
  const path: (string | number)[] = [];
  for (let at: Frame | null = frame; at !== null; at = at.parent) if (at.key !== null) path.push(at.key);
  return path.reverse();
}

/** The path as a reader sees it (`params.arguments.selector[0][0]…`; root '' for none), its first segments only, each cut short. */
export function describeJsonPath(path: JsonPath, root: string): string {
  const SHOWN = 6;
  const parts = path
    .slice(0, SHOWN)
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${JSON.stringify(key.slice(0, 32)).slice(1, -1)}`));
  const joined = `${root}${parts.join('')}${path.length > SHOWN ? '…' : ''}`;
  return joined.startsWith('.') ? joined.slice(1) : joined;
}

/** The refusal's words, the same on every transport: what is too deep, the limit, what to do. */
export function tooDeepMessage(what: string): string {
  return (
    `${what} nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays, the limit for any JSON value this ` +
    'server reads. Send it flatter: a selector nests at most one `within` deep.'
  );
}
