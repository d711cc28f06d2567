/**
 * What appium/appium-mcp's `generate_locators` gives a model for a page source.
 *
 * Rebuilt (our own code) from appium/appium-mcp's sources: src/tools/test-generation/locators.ts,
 * src/locators/{generate-all-locators,element-filter,locator-generation,source-parsing}.ts. Facts used:
 *  - the page source (class names as tags) is parsed with @xmldom/xmldom; the walk is pre-order from
 *    `<hierarchy>`, which is excluded; there is no visibility filter;
 *  - `fetchableOnly` keeps an element whose tag contains one of EditText, Button, ImageButton, CheckBox,
 *    RadioButton, Switch, ToggleButton, TextView, or that has clickable="true" or focusable="true";
 *  - attribute values have each newline replaced by the two characters `\n`;
 *  - per element: `{tagName, locators, text, contentDesc, resourceId, clickable, enabled, displayed}`;
 *  - locators, in this order when present: `id` (resource-id, when unique), `accessibility id`
 *    (content-desc, when unique), `xpath` (the optimal XPath: a unique single attribute among name,
 *    content-desc, id, resource-id, accessibility-id; else a unique pair among those plus label, text,
 *    value; else label/text/value alone; else a unique tag; else the first index-qualified candidate;
 *    else a path built on the parent's optimal XPath), `-android uiautomator` (only inside the last
 *    top-level window: resourceId, text, description, className, unique or `.instance(i)`),
 *    `class name` (when the class is unique);
 *  - the text content is `JSON.stringify({interactableElements, message, instruction})`; the server may
 *    add an MCP-UI resource with an HTML rendering, which is not counted here (a lower bound).
 * Uniqueness is computed as appium-mcp does it, by XPath-equivalent attribute equality over the whole
 * document (`//*[@a="v"]` for the simple locators, with `"` stripped from v; `//Tag[@a="v"]` for the
 * XPath and UiSelector candidates, where a value containing `"` makes the XPath unparseable and is skipped).
 * Instead of re-running the `xpath` engine thousands of times, an index of (tag, attribute, value)
 * gives the same counts and document-order positions.
 */
import { DOMParser } from '@xmldom/xmldom';
import type { Element, Node } from '@xmldom/xmldom';

export interface AppiumMcpElement {
  readonly tagName: string;
  readonly locators: Record<string, string>;
  readonly text: string;
  readonly contentDesc: string;
  readonly resourceId: string;
  readonly clickable: boolean;
  readonly enabled: boolean;
  readonly displayed: boolean;
}

export interface AppiumMcpEntry {
  /** Index of the source element in document order, `<hierarchy>` excluded (our UiTree numbering). */
  readonly order: number;
  readonly element: AppiumMcpElement;
}

const INTERACTABLE_TAG_PARTS = [
  'EditText',
  'Button',
  'ImageButton',
  'CheckBox',
  'RadioButton',
  'Switch',
  'ToggleButton',
  'TextView',
];
const UNIQUE_XPATH_ATTRS = ['name', 'content-desc', 'id', 'resource-id', 'accessibility-id'];
const MAYBE_UNIQUE_XPATH_ATTRS = ['label', 'text', 'value'];
const PAIR_ATTRS = [...UNIQUE_XPATH_ATTRS, ...MAYBE_UNIQUE_XPATH_ATTRS];
const ATTR_PAIRS: [string, string][] = PAIR_ATTRS.flatMap((a, i) =>
  PAIR_ATTRS.slice(i + 1).map((b) => [a, b] as [string, string]),
);
const SIMPLE_STRATEGIES: [string, string][] = [
  ['name', 'accessibility id'],
  ['content-desc', 'accessibility id'],
  ['id', 'id'],
  ['rntestid', 'id'],
  ['resource-id', 'id'],
  ['class', 'class name'],
  ['type', 'class name'],
];
const UIAUTOMATOR_ATTRS: [string, string][] = [
  ['resource-id', 'resourceId'],
  ['text', 'text'],
  ['content-desc', 'description'],
  ['class', 'className'],
];
const PRIORITY = ['id', 'accessibility id', 'xpath', '-android uiautomator', 'class name'];

const ELEMENT_NODE = 1;

function children(node: Node): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) out.push(c as Element);
  return out;
}

/** Document-order list of elements matching a predicate, with the index lookups the generator needs. */
class SourceIndex {
  readonly all: Element[] = [];
  readonly orderOf = new Map<Element, number>();
  private readonly byAttr = new Map<string, Element[]>();

  constructor(root: Element) {
    const walk = (el: Element): void => {
      this.orderOf.set(el, this.all.length);
      this.all.push(el);
      for (let i = 0; i < el.attributes.length; i++) {
        const a = el.attributes.item(i);
        if (!a) continue;
        const key = `${a.name}\u0000${a.value}`;
        const list = this.byAttr.get(key);
        if (list) list.push(el);
        else this.byAttr.set(key, [el]);
      }
      for (const c of children(el)) walk(c);
    };
    walk(root);
  }

  /** `//*[@name="value"]` in document order. */
  withAttr(name: string, value: string): Element[] {
    return this.byAttr.get(`${name}\u0000${value}`) ?? [];
  }

  /** `//tag[@a="v"]`, optionally `and @b="w"`; null when such an XPath would not parse (a `"` in a value). */
  select(tag: string, a: string, v: string, b?: string, w?: string): Element[] | null {
    if (v.includes('"') || (w !== undefined && w.includes('"'))) return null;
    return this.withAttr(a, v).filter((el) => el.nodeName === tag && (b === undefined || el.getAttribute(b) === w));
  }

  byTag(tag: string): Element[] {
    return this.all.filter((el) => el.nodeName === tag);
  }
}

const attrOf = (el: Element, name: string): string => el.getAttribute(name) ?? '';

function optimalXPath(index: SourceIndex, node: Node): string {
  if (!node.nodeName || node.nodeType !== ELEMENT_NODE) return '';
  const el = node as Element;
  const tag = el.nodeName;
  let semiUnique: string | undefined;
  const tryCandidates = (candidates: [string, Element[] | null][]): string | undefined => {
    let semi: string | undefined;
    for (const [xpath, matches] of candidates) {
      if (matches === null) continue;
      if (matches.length <= 1) return xpath; // the node itself always matches: unique
      if (semi === undefined) semi = `(${xpath})[${matches.indexOf(el) + 1}]`;
    }
    if (semi !== undefined && semiUnique === undefined) semiUnique = semi;
    return undefined;
  };
  const single = (attrs: string[]): [string, Element[] | null][] =>
    attrs.flatMap((a): [string, Element[] | null][] => {
      const v = attrOf(el, a);
      return v ? [[`//${tag}[@${a}="${v}"]`, index.select(tag, a, v)]] : [];
    });
  const pairs = ATTR_PAIRS.flatMap(([a, b]): [string, Element[] | null][] => {
    const v = attrOf(el, a);
    const w = attrOf(el, b);
    return v && w ? [[`//${tag}[@${a}="${v}" and @${b}="${w}"]`, index.select(tag, a, v, b, w)]] : [];
  });
  const found =
    tryCandidates(single(UNIQUE_XPATH_ATTRS)) ??
    tryCandidates(pairs) ??
    tryCandidates(single(MAYBE_UNIQUE_XPATH_ATTRS));
  if (found) return found;
  if (index.byTag(tag).length === 1) return `//${tag}`;
  if (semiUnique) return semiUnique;
  let step = `/${tag}`;
  const parent = el.parentNode;
  if (parent) {
    const same = children(parent).filter((c) => c.nodeName === tag);
    if (same.length > 1) step += `[${same.indexOf(el) + 1}]`;
  }
  return optimalXPath(index, parent as Node) + step;
}

/** appium-mcp only builds a UiSelector for elements inside the hierarchy's last top-level child. */
function optimalUiSelector(el: Element, topLevel: Element, lastTopLevel: Element, scope: SourceIndex): string | null {
  if (topLevel !== lastTopLevel) return null;
  let best: string | undefined;
  let bestCount: number | undefined;
  for (const [attr, method] of UIAUTOMATOR_ATTRS) {
    const v = attrOf(el, attr);
    if (!v) continue;
    const matches = scope.select(el.nodeName, attr, v);
    if (matches === null) continue;
    const selector = `new UiSelector().${method}("${v}")`;
    if (matches.length === 1) return selector;
    if (!bestCount || matches.length < bestCount) {
      bestCount = matches.length;
      best = `${selector}.instance(${matches.indexOf(el)})`;
    }
  }
  return best ?? null;
}

function isInteractable(el: Element): boolean {
  return (
    INTERACTABLE_TAG_PARTS.some((t) => el.nodeName.includes(t)) ||
    el.getAttribute('clickable') === 'true' ||
    el.getAttribute('focusable') === 'true'
  );
}

/** `xml` must be in Appium page-source shape. */
export function appiumMcpEntries(xml: string): AppiumMcpEntry[] {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const hierarchy = doc.documentElement;
  if (!hierarchy) return [];
  const index = new SourceIndex(hierarchy);
  const topLevels = children(hierarchy);
  const lastTopLevel = topLevels[topLevels.length - 1];
  const uiScope = lastTopLevel ? new SourceIndex(lastTopLevel) : null;
  const escaped = (v: string): string => v.replace(/\n/g, '\\n');
  const out: AppiumMcpEntry[] = [];
  const visit = (el: Element, topLevel: Element): void => {
    if (isInteractable(el)) {
      const simple: Record<string, string> = {};
      for (const [attr, strategy] of SIMPLE_STRATEGIES) {
        const value = el.getAttribute(attr) !== null ? escaped(attrOf(el, attr)) : '';
        if (value && index.withAttr(attr, value.replace(/"/g, '')).length < 2) simple[strategy] = value;
      }
      const complex: Record<string, string> = {};
      const ui = lastTopLevel && uiScope ? optimalUiSelector(el, topLevel, lastTopLevel, uiScope) : null;
      if (ui) complex['-android uiautomator'] = ui;
      complex['xpath'] = optimalXPath(index, el);
      const all: Record<string, string> = { ...simple, ...complex };
      const locators: Record<string, string> = {};
      for (const s of PRIORITY) if (all[s]) locators[s] = all[s] as string;
      for (const [s, v] of Object.entries(all)) if (!PRIORITY.includes(s)) locators[s] = v;
      out.push({
        order: (index.orderOf.get(el) as number) - 1,
        element: {
          tagName: el.nodeName,
          locators,
          text: escaped(attrOf(el, 'text')),
          contentDesc: escaped(attrOf(el, 'content-desc')),
          resourceId: escaped(attrOf(el, 'resource-id')),
          clickable: el.getAttribute('clickable') === 'true',
          enabled: el.getAttribute('enabled') === 'true',
          displayed: el.getAttribute('displayed') === 'true',
        },
      });
    }
    for (const c of children(el)) visit(c, topLevel);
  };
  for (const top of topLevels) visit(top, top);
  return out;
}

/** The instruction sentence is part of what the model reads; its wording is a fact of the format. */
const INSTRUCTION = `These are the locators for the current page. Use this to generate code for the current page.
                     Using the template provided by generate://code-with-locators resource.`;

export function formatAppiumMcp(entries: readonly AppiumMcpEntry[]): string {
  return JSON.stringify({
    interactableElements: entries.map((e) => e.element),
    message: 'Page source retrieved successfully',
    instruction: INSTRUCTION,
  });
}
