/**
 * The `-android uiautomator` locator: a subset of UiSelector / UiScrollable, parsed from
 * the Java-like text clients send (`new UiSelector().text("Calendar").instance(0)`).
 */
import type { UiElement } from '../device/uiTree.js';
import { flatten } from '../device/uiTree.js';

type Arg = string | number | boolean | SelectorChain;
interface Call {
  readonly name: string;
  readonly args: readonly Arg[];
}
export interface SelectorChain {
  readonly kind: 'UiSelector' | 'UiScrollable';
  readonly ctorArgs: readonly Arg[];
  readonly calls: readonly Call[];
}

export class UiSelectorSyntaxError extends Error {}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] ?? '')) this.i++;
  }
  private eat(token: string): boolean {
    this.ws();
    if (this.s.startsWith(token, this.i)) {
      this.i += token.length;
      return true;
    }
    return false;
  }
  private expect(token: string): void {
    if (!this.eat(token))
      throw new UiSelectorSyntaxError(`Expected '${token}' at position ${this.i} of ${JSON.stringify(this.s)}`);
  }
  private ident(): string {
    this.ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (!m) throw new UiSelectorSyntaxError(`Expected a name at position ${this.i} of ${JSON.stringify(this.s)}`);
    this.i += m[0].length;
    return m[0];
  }
  atEnd(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }
  chain(): SelectorChain {
    this.expect('new');
    const ctor = this.ident();
    if (ctor !== 'UiSelector' && ctor !== 'UiScrollable')
      throw new UiSelectorSyntaxError(`Unsupported class '${ctor}'; use UiSelector or UiScrollable`);
    const ctorArgs = this.args();
    const calls: Call[] = [];
    while (this.eat('.')) calls.push({ name: this.ident(), args: this.args() });
    return { kind: ctor, ctorArgs, calls };
  }
  private args(): Arg[] {
    this.expect('(');
    const out: Arg[] = [];
    if (this.eat(')')) return out;
    do out.push(this.arg());
    while (this.eat(','));
    this.expect(')');
    return out;
  }
  private arg(): Arg {
    this.ws();
    const c = this.s[this.i];
    if (c === '"') {
      // As appium-uiautomator2-server's UiExpressionParser: a quote preceded by a backslash does
      // not end the literal, and `\"` is the only escape (coerceArgToType replaces it by `"`);
      // every other backslash reaches UiSelector as written (`\.` stays `\.` for a regex).
      let raw = '';
      this.i++;
      while (this.i < this.s.length && !(this.s[this.i] === '"' && this.s[this.i - 1] !== '\\'))
        raw += this.s[this.i++];
      this.expect('"');
      return raw.replace(/\\"/g, '"');
    }
    if (this.s.startsWith('new', this.i)) return this.chain();
    const m = /^(true|false|-?\d+)/.exec(this.s.slice(this.i));
    if (!m || m[1] === undefined)
      throw new UiSelectorSyntaxError(`Unsupported argument at position ${this.i} of ${JSON.stringify(this.s)}`);
    this.i += m[1].length;
    return m[1] === 'true' ? true : m[1] === 'false' ? false : Number(m[1]);
  }
}

/**
 * UiSelectorParser.prepareForParsing: a statement may leave out the constructor. `text("x")`
 * and `.text("x")` read as `new UiSelector().text("x")`, `UiSelector()…` as `new UiSelector()…`.
 */
function withConstructor(statement: string): string {
  if (statement === '' || statement.startsWith('new ') || statement.startsWith('UiScrollable')) return statement;
  if (statement.startsWith('UiSelector')) return `new ${statement}`;
  return `new UiSelector()${statement.startsWith('.') ? '' : '.'}${statement}`;
}

export function parseUiSelector(text: string): SelectorChain[] {
  const chains: SelectorChain[] = [];
  for (const part of text.split(/;\s*(?=new\s|UiSelector|UiScrollable|\.|[a-z]\w*\()/)) {
    const trimmed = withConstructor(part.trim().replace(/;$/, ''));
    if (trimmed === '') continue;
    const p = new Parser(trimmed);
    chains.push(p.chain());
    if (!p.atEnd()) throw new UiSelectorSyntaxError(`Unexpected text after the selector in ${JSON.stringify(trimmed)}`);
  }
  if (chains.length === 0) throw new UiSelectorSyntaxError('The UiSelector is empty');
  return chains;
}

const str = (a: Arg | undefined): string => (typeof a === 'string' ? a : String(a));

/**
 * A java.util.regex pattern as a whole-match JS RegExp, close enough for UiSelector's *Matches:
 * code points (`u`), and `.` outside classes stops at Java's line terminators (JS's `.` accepts
 * U+0085). Patterns JS cannot read are refused as the device would refuse a bad Pattern.
 */
function javaWholeMatch(pattern: string, dotAll = false): RegExp {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\') {
      out += ch + (pattern[i + 1] ?? '');
      i++;
    } else if (ch === '[') {
      inClass = true;
      out += ch;
    } else if (ch === ']') {
      inClass = false;
      out += ch;
    } else if (ch === '.' && !inClass && !dotAll) out += '[^\\n\\r\\u0085\\u2028\\u2029]';
    else out += ch;
  }
  for (const flags of ['u', '']) {
    try {
      return new RegExp(`^(?:${out})$`, flags);
    } catch {
      // try without `u` (identity escapes such as \- are errors under `u`)
    }
  }
  throw new UiSelectorSyntaxError(`Invalid regular expression ${JSON.stringify(pattern)}`);
}
const toBool = (a: Arg | undefined): boolean => a === undefined || a === true || a === 'true';

function predicate(call: Call): ((e: UiElement) => boolean) | null {
  const a = call.args[0];
  switch (call.name) {
    case 'text':
      return (e) => e.text === str(a);
    case 'textContains':
      return (e) => e.text.includes(str(a));
    case 'textStartsWith':
      return (e) => e.text.startsWith(str(a));
    case 'textMatches':
      return (e) => javaWholeMatch(str(a), true).test(e.text);
    case 'description':
      return (e) => e.contentDesc === str(a);
    case 'descriptionContains':
      return (e) => e.contentDesc.includes(str(a));
    case 'descriptionStartsWith':
      return (e) => e.contentDesc.startsWith(str(a));
    case 'descriptionMatches':
      return (e) => javaWholeMatch(str(a), true).test(e.contentDesc);
    case 'resourceId':
      return (e) => e.resourceId === str(a);
    // UiSelector: a node without a resource id (getViewIdResourceName() null) never matches.
    case 'resourceIdMatches': {
      const re = javaWholeMatch(str(a));
      return (e) => e.resourceId !== '' && re.test(e.resourceId);
    }
    case 'className':
      return (e) => e.className === str(a);
    case 'classNameMatches':
      return (e) => javaWholeMatch(str(a)).test(e.className);
    case 'packageName':
      return (e) => e.package === str(a);
    case 'clickable':
      return (e) => e.clickable === toBool(a);
    case 'checkable':
      return (e) => e.checkable === toBool(a);
    case 'checked':
      return (e) => e.checked === toBool(a);
    case 'enabled':
      return (e) => e.enabled === toBool(a);
    case 'focusable':
      return (e) => e.focusable === toBool(a);
    case 'focused':
      return (e) => e.focused === toBool(a);
    case 'scrollable':
      return (e) => e.scrollable === toBool(a);
    case 'selected':
      return (e) => e.selected === toBool(a);
    case 'longClickable':
      return (e) => e.longClickable === toBool(a);
    case 'index':
      return (e) => e.index === Number(a);
    default:
      return null;
  }
}

/** Elements matching one UiSelector chain within `roots`' subtrees. */
export function matchSelector(chain: SelectorChain, roots: readonly UiElement[]): UiElement[] {
  const preds: ((e: UiElement) => boolean)[] = [];
  let instance: number | null = null;
  let child: SelectorChain | null = null;
  for (const call of chain.calls) {
    if (call.name === 'instance') instance = Number(call.args[0]);
    else if (call.name === 'childSelector' && typeof call.args[0] === 'object') child = call.args[0];
    else {
      const p = predicate(call);
      if (!p) throw new UiSelectorSyntaxError(`UiSelector.${call.name}() is not supported by the virtual device`);
      preds.push(p);
    }
  }
  const all = roots.flatMap((r) => flatten(r));
  let matches = all.filter((e) => preds.every((p) => p(e)));
  if (child) {
    const inner = child;
    matches = matches.flatMap((m) => matchSelector(inner, m.children));
  }
  if (instance !== null) {
    const one = matches[instance];
    return one ? [one] : [];
  }
  return matches;
}
