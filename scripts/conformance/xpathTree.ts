/**
 * The nodes an xpath implies: for a selector that walks the tree (`/child`, `following-sibling::`,
 * `ancestor::`, `..`, `(…)[n]//…`, a path inside a predicate), a small nested tree in which the
 * real server's match has the ancestors, siblings and positions the selector names. A flat node
 * per selector cannot satisfy such a path, so the replay would find nothing where the real server
 * found something.
 *
 * Only what the selector states is built: a class per step, the literal attribute constraints
 * (`@a='v'`, `contains(@a,'v')`, `starts-with(@a,'v')`, `text()='v'`), positions as preceding
 * twins. Negations are skipped and of an `or` / `|` only the first branch is built; a selector
 * this reading gets wrong still shows up as a difference in the replay, never as a match.
 */

export interface TreeNode {
  /** The class; null while no step has named it (written as a FrameLayout). */
  cls: string | null;
  attrs: Record<string, string>;
  children: TreeNode[];
  parent: TreeNode | null;
}

export interface XpathTree {
  /** The topmost built node: the screen's root gets it as one child. */
  top: TreeNode;
  /** The node the selector selects (the real server's match). */
  target?: TreeNode;
}

const node = (cls: string | null, parent: TreeNode | null): TreeNode => ({ cls, attrs: {}, children: [], parent });

/** Splits `text` at top-level occurrences of `sep` (outside quotes, brackets and parentheses). */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The index just past the bracket or parenthesis that closes the one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

interface Step {
  /** How this step was reached: `/` (child) or `//` (descendant); '' for the first step of a relative path. */
  readonly sep: '/' | '//' | '';
  readonly axis: string;
  /** The node test: a class, `*`, `node()`, or `.` / `..`. */
  readonly test: string;
  readonly predicates: readonly string[];
}

/** A location path as steps, with a leading `(…)[n]` kept apart. */
function parsePath(path: string): { group: { inner: string; position: number } | null; steps: Step[] } | null {
  let rest = path.trim();
  let group: { inner: string; position: number } | null = null;
  if (rest.startsWith('(')) {
    const end = closing(rest, 0);
    if (end < 0) return null;
    const inner = rest.slice(1, end - 1);
    rest = rest.slice(end);
    const position = /^\s*\[(\d+)\]/.exec(rest);
    group = { inner, position: position ? Number(position[1]) : 1 };
    if (position) rest = rest.slice(position[0].length);
  }
  const steps: Step[] = [];
  while (rest.length > 0) {
    const sepMatch = /^\s*(\/\/|\/)?\s*/.exec(rest)!;
    const sep = (sepMatch[1] ?? '') as Step['sep'];
    rest = rest.slice(sepMatch[0].length);
    const head = /^(?:([\w-]+)::)?(\.\.|\.|node\(\)|\*|[\w.$-]+)/.exec(rest);
    if (!head) return null;
    rest = rest.slice(head[0].length);
    const predicates: string[] = [];
    while (rest.startsWith('[')) {
      const end = closing(rest, 0);
      if (end < 0) return null;
      predicates.push(rest.slice(1, end - 1));
      rest = rest.slice(end).trimStart();
    }
    steps.push({ sep, axis: head[1] ?? (sep === '//' ? 'descendant' : 'child'), test: head[2]!, predicates });
  }
  return { group, steps };
}

const literal = (v: string): string => v.slice(1, -1);
const QUOTED = String.raw`('[^']*'|"[^"]*")`;

/** One condition of a predicate, applied to `ctx`; false when it cannot be read. */
function applyCondition(tree: XpathTree, ctx: TreeNode, condition: string): boolean {
  const c = condition.trim().replace(/^\((.*)\)$/s, '$1');
  const ors = splitTop(c, ' or ');
  if (ors.length > 1) return applyCondition(tree, ctx, ors[0]!);
  const ands = splitTop(c, ' and ');
  if (ands.length > 1) return ands.every((a) => applyCondition(tree, ctx, a));
  if (/^not\(/.test(c) || /^@[\w-]+$/.test(c) || c === 'last()') return true;
  let m = new RegExp(String.raw`^@([\w-]+)\s*=\s*${QUOTED}$`).exec(c);
  if (m) return ((ctx.attrs[m[1]!] = literal(m[2]!)), true);
  m = new RegExp(String.raw`^text\(\)\s*=\s*${QUOTED}$`).exec(c);
  if (m) return ((ctx.attrs.text = literal(m[1]!)), true);
  m = new RegExp(String.raw`^(?:contains|starts-with)\(\s*(?:@([\w-]+)|(text\(\)))\s*,\s*${QUOTED}\s*\)$`).exec(c);
  if (m) return ((ctx.attrs[m[1] ?? 'text'] = literal(m[3]!)), true);
  // `[./X[…]]`, `[X/@text='v']`: a relative path the node must have; its trailing `@a='v'` belongs to the last step.
  const attrEnd = new RegExp(String.raw`^(.*?)/@([\w-]+)\s*=\s*${QUOTED}$`).exec(c);
  const path = attrEnd ? attrEnd[1]! : c;
  const end = buildSteps(tree, ctx, path);
  if (!end) return false;
  if (attrEnd) end.attrs[attrEnd[2]!] = literal(attrEnd[3]!);
  return true;
}

/** Inserts a new node above the topmost one: whatever was built becomes its descendant. */
function wrapTop(tree: XpathTree, cls: string | null): TreeNode {
  const above = node(cls, null);
  above.children.push(tree.top);
  tree.top.parent = above;
  tree.top = above;
  return above;
}

const classOf = (test: string): string | null => (test === '*' || test === 'node()' ? null : test);

/** A node of this step's class among `parent`'s children, after `position - 1` twins of it. */
function childAt(parent: TreeNode, cls: string | null, position: number, at?: number): TreeNode[] {
  const made: TreeNode[] = [];
  for (let i = 0; i < position; i++) made.push(node(cls, parent));
  if (at === undefined) parent.children.push(...made);
  else parent.children.splice(at, 0, ...made);
  return made;
}

function applyStep(tree: XpathTree, ctx: TreeNode, step: Step): TreeNode | null {
  const cls = classOf(step.test);
  const positions = step.predicates.filter((p) => /^\s*\d+\s*$/.test(p)).map(Number);
  const position = positions[0] ?? 1;
  let target: TreeNode;
  if (step.test === '.') target = ctx;
  else if (step.test === '..' || step.axis === 'parent') {
    target = ctx.parent ?? wrapTop(tree, cls);
    if (target.cls === null) target.cls = cls;
  } else if (step.axis === 'ancestor' || step.axis === 'ancestor-or-self') {
    let up: TreeNode | null = step.axis === 'ancestor' ? ctx.parent : ctx;
    while (up && !(up.cls === null || cls === null || up.cls === cls)) up = up.parent;
    target = up ?? wrapTop(tree, cls);
    if (target.cls === null) target.cls = cls;
  } else if (step.axis === 'following-sibling' || step.axis === 'preceding-sibling') {
    const parent = ctx.parent ?? wrapTop(tree, null);
    const at = parent.children.indexOf(ctx);
    // The nearest sibling on that side is position 1: twins go beyond it.
    const made =
      step.axis === 'following-sibling' ? childAt(parent, cls, position, at + 1) : childAt(parent, cls, position, at);
    target = (step.axis === 'following-sibling' ? made.at(-1) : made[0])!;
  } else if (step.axis === 'child' || step.axis === 'descendant' || step.axis === 'descendant-or-self') {
    target = childAt(ctx, cls, position).at(-1)!;
  } else return null;
  for (const p of step.predicates) if (!/^\s*\d+\s*$/.test(p) && !applyCondition(tree, target, p)) return null;
  // The twins carry the same attributes, so `X[@a='v'][3]` has three nodes with @a='v'.
  if (position > 1 && target !== ctx && (step.axis === 'child' || step.axis === 'descendant'))
    for (const twin of ctx.children.slice(-position, -1)) twin.attrs = { ...target.attrs };
  return target;
}

/** Builds a relative path from `ctx`; returns the node it selects, or null when it cannot be read. */
function buildSteps(tree: XpathTree, ctx: TreeNode, path: string): TreeNode | null {
  const parsed = parsePath(path);
  if (!parsed) return null;
  let at = ctx;
  if (parsed.group) {
    // `(P)[n]…`: the n-th match of P in document order, so P is built n times over.
    let last: TreeNode | null = null;
    for (let i = 0; i < parsed.group.position; i++) last = buildSteps(tree, ctx, parsed.group.inner);
    if (!last) return null;
    at = last;
  }
  for (const step of parsed.steps) {
    const next = applyStep(tree, at, step);
    if (!next) return null;
    at = next;
  }
  return at;
}

/**
 * Whether the selector needs a tree: it names an axis, a parent, more than one step, a path inside
 * a predicate, or steps after a `(…)[n]` group.
 */
export function isStructural(selector: string): boolean {
  const bare = selector.replace(/'[^']*'|"[^"]*"/g, "''");
  if (/^\s*\/hierarchy\b/.test(bare)) return false;
  if (/::|\.\./.test(bare)) return true;
  if (/\)\s*(\[\d+\])?\s*\//.test(bare)) return true;
  if (/\[[^\]]*\w\/|\[\s*\.\/?\//.test(bare)) return true;
  const outside = bare.replace(/\[[^\]]*\]/g, '');
  return (outside.match(/\/\/?[\w.*$]/g) ?? []).length > 1;
}

/** The tree an xpath implies, or null when it cannot be read. The first union branch is the one built. */
export function xpathTree(selector: string): XpathTree | null {
  const first = splitTop(selector, '|')[0]!.trim();
  // The document root's children are the screen's windows: the path starts at a fresh node below them.
  const tree: XpathTree = { top: node(null, null) };
  const relative = first.replace(/^\.?\/\/?/, '//');
  const target = buildSteps(tree, tree.top, relative);
  return target ? { ...tree, target } : null;
}
