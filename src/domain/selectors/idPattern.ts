/**
 * The bounded regular-expression dialect of `resource_id_matches` (docs/reference/contract.md, "Selectors
 * written by hand").
 *
 * The device runs it as `new UiSelector().resourceIdMatches("…")`: `Pattern.compile` then
 * `matcher(id).matches()` in Java (a whole-id match; a node without a resource id never matches).
 * The harness runs it in JavaScript to prove what the device would find. So the dialect is the
 * part where java.util.regex and a JS `u` RegExp agree, and nothing that can blow up:
 *
 *  - literal characters (anything but the metacharacters below, `"` and `\`);
 *  - `.` (any character but a line terminator: Java's \n \r \u0085 \u2028 \u2029, which is
 *    compiled to an explicit class because JS's `.` does match \u0085);
 *  - classes `[abc]`, `[a-z0-9_]`, `[^/]` (no nesting, no `&`, `[` or `\` inside: Java reads
 *    `[a&&b]` and `[a[b]]` as intersection and union, JS as literals);
 *  - escapes `\d \D \w \W` (ASCII in both by default) and a backslash before a metacharacter
 *    (`\.`); no `\s` (Java's is ASCII, JS's is Unicode), no `\\`;
 *  - one quantifier `*`, `+` or `?` per atom (no `{n,m}`, no lazy or possessive forms);
 *  - `^` first and `$` last, both optional (the match is whole-id anyway).
 *
 * No groups, so no alternation inside groups, no backreferences, no lookarounds and no nested
 * quantifiers. At most 2 unbounded quantifiers (`*`, `+`) and 6 in all, and at most 128 code
 * points, so a backtracking engine's worst case stays polynomial and small on the device.
 */

export const ID_PATTERN_MAX_CODE_POINTS = 128;
export const ID_PATTERN_MAX_UNBOUNDED = 2;
export const ID_PATTERN_MAX_QUANTIFIERS = 6;

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W']);
/** Java's line terminators, which `.` does not match without DOTALL. */
const JAVA_DOT = '[^\\n\\r\\u0085\\u2028\\u2029]';

interface Parsed {
  /** The JS source, already with Java's semantics. */
  readonly js: string;
}

class PatternProblem extends Error {}

function jsEscape(ch: string): string {
  // Inside a `u` RegExp only syntax characters may be escaped; `-` and `/` need no escape outside a class.
  return /[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch;
}

function jsClassChar(ch: string): string {
  return /[\\\]^-]/.test(ch) ? `\\${ch}` : ch;
}

function parse(pattern: string): Parsed {
  const cps = [...pattern];
  let i = 0;
  let js = '';
  let atoms = 0;
  let quantifiers = 0;
  let unbounded = 0;
  let lastWasAtom = false;
  if (cps[0] === '^') i++;
  const end =
    cps.length > i && cps[cps.length - 1] === '$' && cps[cps.length - 2] !== '\\' ? cps.length - 1 : cps.length;
  while (i < end) {
    const ch = cps[i] as string;
    if (ch === '*' || ch === '+' || ch === '?') {
      if (!lastWasAtom) {
        throw new PatternProblem(
          i === 0 || (i === 1 && cps[0] === '^')
            ? `'${ch}' at position ${i + 1} has nothing to repeat`
            : `'${ch}' at position ${i + 1} follows another quantifier (no nested, lazy or possessive quantifiers)`,
        );
      }
      quantifiers++;
      if (ch !== '?') unbounded++;
      js += ch;
      lastWasAtom = false;
      i++;
      continue;
    }
    if (ch === '"') throw new PatternProblem('it contains a double quote, which no resource id has');
    if (ch === '^' || ch === '$')
      throw new PatternProblem(`'${ch}' is only allowed as the first ('^') or last ('$') character`);
    if (ch === '(' || ch === ')')
      throw new PatternProblem(
        'groups are not supported (no parentheses: no alternation, backreference or lookaround)',
      );
    if (ch === '|') throw new PatternProblem("alternation '|' is not supported; send one selector per id");
    if (ch === '{' || ch === '}')
      throw new PatternProblem("counted repetition '{n,m}' is not supported; use '*', '+' or '?'");
    if (ch === ']') throw new PatternProblem(`']' at position ${i + 1} closes no class`);
    if (ch === '\\') {
      const next = cps[i + 1];
      if (next === undefined) throw new PatternProblem('it ends with a backslash');
      if (CLASS_ESCAPES.has(next)) js += `\\${next}`;
      else if (META.has(next) && next !== '\\') js += jsEscape(next);
      else if (next === '-' || next === '/') js += next;
      else {
        throw new PatternProblem(
          `'\\${next}' is not supported (escapes: \\d \\D \\w \\W, or a backslash before one of . ^ $ | ? * + ( ) [ ] { } - /)`,
        );
      }
      i += 2;
    } else if (ch === '.') {
      js += JAVA_DOT;
      i++;
    } else if (ch === '[') {
      i++;
      let cls = '[';
      if (cps[i] === '^') {
        cls += '^';
        i++;
      }
      const members: string[] = [];
      while (i < end && cps[i] !== ']') {
        const c = cps[i] as string;
        if (c === '[' || c === '&' || c === '\\' || c === '"') {
          throw new PatternProblem(`'${c}' inside a character class is not supported`);
        }
        if (c === '^') throw new PatternProblem("'^' inside a class is only allowed first (negation)");
        const to = cps[i + 2];
        if (cps[i + 1] === '-' && to !== undefined && to !== ']' && i + 2 < end) {
          if (to === '[' || to === '&' || to === '\\' || to === '"' || to === '^') {
            throw new PatternProblem(`'${to}' inside a character class is not supported`);
          }
          if ((c.codePointAt(0) ?? 0) > (to.codePointAt(0) ?? 0))
            throw new PatternProblem(`the range '${c}-${to}' runs backwards`);
          members.push(`${jsClassChar(c)}-${jsClassChar(to)}`);
          i += 3;
        } else {
          members.push(jsClassChar(c));
          i++;
        }
      }
      if (cps[i] !== ']' || i >= end) throw new PatternProblem("a character class '[' is not closed");
      if (members.length === 0) throw new PatternProblem('a character class is empty');
      js += `${cls}${members.join('')}]`;
      i++;
    } else {
      js += jsEscape(ch);
      i++;
    }
    atoms++;
    lastWasAtom = true;
  }
  if (atoms === 0) throw new PatternProblem('it matches no resource id (it has nothing but anchors)');
  if (unbounded > ID_PATTERN_MAX_UNBOUNDED) {
    throw new PatternProblem(`it has ${unbounded} '*' or '+' (at most ${ID_PATTERN_MAX_UNBOUNDED})`);
  }
  if (quantifiers > ID_PATTERN_MAX_QUANTIFIERS) {
    throw new PatternProblem(`it has ${quantifiers} quantifiers (at most ${ID_PATTERN_MAX_QUANTIFIERS})`);
  }
  return { js };
}

/** Why `pattern` is outside the dialect, or null. Control characters are checked by the selector rules. */
export function idPatternProblem(pattern: string): string | null {
  const length = [...pattern].length;
  if (length > ID_PATTERN_MAX_CODE_POINTS)
    return `is ${length} characters long (at most ${ID_PATTERN_MAX_CODE_POINTS})`;
  try {
    parse(pattern);
    return null;
  } catch (error) {
    if (error instanceof PatternProblem) return `is outside the supported pattern dialect: ${error.message}`;
    throw error;
  }
}

const compiled = new Map<string, RegExp>();

/** The whole-id JS RegExp with Java's semantics for a pattern `idPatternProblem` accepted. */
export function compileIdPattern(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(`^(?:${parse(pattern).js})$`, 'u');
    if (compiled.size > 256) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/** Does a node's resource id match, as UiSelector.resourceIdMatches decides (no id: no match)? */
export function idMatches(pattern: string, resourceId: string): boolean {
  return resourceId !== '' && compileIdPattern(pattern).test(resourceId);
}
