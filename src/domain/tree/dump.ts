/**
 * Dump parsing for both shapes (docs/reference/summary.md, "Reading the dump"):
 *  - uiautomator: `<hierarchy rotation="0"><node class="…" bounds="[l,t][r,b]" …>`;
 *  - Appium UiAutomator2 page source: tags are class names, `<hierarchy … width="…" height="…">`;
 *    older sources may lack the `class` attribute, then the tag is the class.
 *
 * A small hand-rolled scanner rather than a general XML library: the input is a flat,
 * attribute-only vocabulary, and this parses the 194 KB fixture in a few milliseconds
 * (measured in test/unit/domain/fixtures.test.ts). It is strict about structure
 * (tags must nest and close) and lenient about what surrounds the hierarchy: anything before
 * the first `<hierarchy` and after the last `</hierarchy>` (adb chatter, "UI hierchary dumped
 * to: /dev/tty") is ignored.
 *
 * Attribute values are kept raw: no XML whitespace normalisation. A literal newline in a dump is
 * a newline in the node's real value (serialisers escape it as `&#10;` anyway), and the device's
 * own matcher compares against that real value.
 */
import { HarnessError } from '../errors.js';
import { keepsPasswordText } from './nodeFacts.js';
import type { Rect, UiNode, UiTree } from './uiNode.js';

const RETRY_HINT = 'Wait a moment for the screen to settle and call ui_get_tree again.';

function unavailable(reason: string): HarnessError {
  return new HarnessError('UI_TREE_UNAVAILABLE', `The UI hierarchy could not be read: ${reason}. ${RETRY_HINT}`);
}

interface MutableNode {
  order: number;
  className: string;
  packageName: string;
  resourceId: string;
  text: string;
  contentDesc: string;
  hint: string;
  showingHint: boolean | null;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  longClickable: boolean;
  enabled: boolean;
  focusable: boolean;
  focused: boolean;
  scrollable: boolean;
  selected: boolean;
  password: boolean;
  bounds: Rect | null;
  parent: MutableNode | null;
  children: MutableNode[];
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Resolves the five XML entities and numeric character references; anything else is kept as written. */
export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z]+);/g, (whole, body: string) => {
    if (body.charCodeAt(0) === 35 /* # */) {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)
        ? String.fromCodePoint(cp)
        : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

const BOUNDS_PATTERN = /^\s*\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]\s*$/;

export function parseBounds(value: string | undefined): Rect | null {
  if (value === undefined) return null;
  const m = BOUNDS_PATTERN.exec(value);
  if (!m) return null;
  return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
}

function isNameChar(c: number): boolean {
  // Anything that is not whitespace, '/', '>', '=' or a quote may be part of a tag or attribute name.
  return !(c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62 || c === 61 || c === 34 || c === 39);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

interface OpenTag {
  name: string;
  attrs: Map<string, string>;
  /** Where the raw value of the `text` attribute sits in the input (between the quotes), for redaction. */
  textSpan: readonly [number, number] | null;
  selfClosing: boolean;
  end: number;
}

/** Reads `<name a="v" …>` starting at `lt`; throws on anything that is not well-formed. */
function readOpenTag(xml: string, lt: number, limit: number): OpenTag {
  let i = lt + 1;
  const nameStart = i;
  while (i < limit && isNameChar(xml.charCodeAt(i))) i++;
  if (i === nameStart) throw unavailable(`a tag without a name at offset ${lt}`);
  const name = xml.slice(nameStart, i);
  const attrs = new Map<string, string>();
  let textSpan: readonly [number, number] | null = null;
  for (;;) {
    while (i < limit && isSpace(xml.charCodeAt(i))) i++;
    if (i >= limit) throw unavailable(`the tag <${name.slice(0, 60)}> is not closed`);
    const c = xml.charCodeAt(i);
    if (c === 62 /* > */) return { name, attrs, textSpan, selfClosing: false, end: i + 1 };
    if (c === 47 /* / */) {
      if (xml.charCodeAt(i + 1) !== 62) throw unavailable(`a stray '/' in <${name.slice(0, 60)}>`);
      return { name, attrs, textSpan, selfClosing: true, end: i + 2 };
    }
    const attrStart = i;
    while (i < limit && isNameChar(xml.charCodeAt(i))) i++;
    if (i === attrStart) throw unavailable(`an unexpected character in <${name.slice(0, 60)}>`);
    const attrName = xml.slice(attrStart, i);
    while (i < limit && isSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== 61 /* = */) throw unavailable(`the attribute ${attrName.slice(0, 60)} has no value`);
    i++;
    while (i < limit && isSpace(xml.charCodeAt(i))) i++;
    const quote = xml.charCodeAt(i);
    if (quote !== 34 && quote !== 39) throw unavailable(`the attribute ${attrName.slice(0, 60)} is not quoted`);
    const close = xml.indexOf(quote === 34 ? '"' : "'", i + 1);
    if (close < 0 || close >= limit) throw unavailable(`the attribute ${attrName.slice(0, 60)} is not terminated`);
    attrs.set(attrName, decodeEntities(xml.slice(i + 1, close)));
    if (attrName === 'text') textSpan = [i + 1, close];
    i = close + 1;
  }
}

function skipPast(xml: string, from: number, terminator: string, limit: number, what: string): number {
  const at = xml.indexOf(terminator, from);
  if (at < 0 || at + terminator.length > limit) throw unavailable(`an unterminated ${what}`);
  return at + terminator.length;
}

function toInt(value: string | undefined): number | null {
  if (value === undefined || !/^\s*-?\d+\s*$/.test(value)) return null;
  return Number(value);
}

/** `"true"` / `"false"` as a boolean, anything else (or absent) as null. */
function flag(value: string | undefined): boolean | null {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

function makeNode(tag: OpenTag, order: number, parent: MutableNode | null): MutableNode {
  const a = tag.attrs;
  // uiautomator names every element `node`; Appium names it after the class and, in old
  // versions, omits the `class` attribute.
  const className = a.get('class') ?? (tag.name === 'node' ? '' : tag.name);
  return {
    order,
    className,
    packageName: a.get('package') ?? '',
    resourceId: a.get('resource-id') ?? '',
    text: a.get('text') ?? '',
    contentDesc: a.get('content-desc') ?? '',
    hint: a.get('hint') ?? '',
    showingHint: flag(a.get('showing-hint')),
    checkable: a.get('checkable') === 'true',
    checked: a.get('checked') === 'true',
    clickable: a.get('clickable') === 'true',
    longClickable: a.get('long-clickable') === 'true',
    enabled: a.get('enabled') !== 'false',
    focusable: a.get('focusable') === 'true',
    focused: a.get('focused') === 'true',
    scrollable: a.get('scrollable') === 'true',
    selected: a.get('selected') === 'true',
    password: a.get('password') === 'true',
    bounds: parseBounds(a.get('bounds')),
    parent,
    children: [],
  };
}

/** Known device error lines that mean "no hierarchy this time", turned into a useful reason. */
function explainMissingHierarchy(xml: string): string {
  if (/null root node/i.test(xml)) return 'the device returned "null root node" (the app is still starting)';
  if (/could not get idle state/i.test(xml)) {
    return 'the device reported "could not get idle state" (the screen never goes idle, e.g. a playing video)';
  }
  if (/already registered/i.test(xml)) {
    return 'another UiAutomation client holds the device (an automation tool is running)';
  }
  if (xml.trim().length === 0) return 'the dump was empty';
  return 'the dump holds no <hierarchy> element';
}

/** Parses either dump shape; throws HarnessError('UI_TREE_UNAVAILABLE') when there is no usable hierarchy. */
export function parseDump(xml: string): UiTree {
  return readHierarchy(xml);
}

/** What the raw XML says instead of a password field's text (docs/reference/summary.md, "Password fields"). */
export const HIDDEN_PASSWORD_TEXT = '[hidden password]';

/**
 * The dump as `include_raw` returns it: byte for byte the device's XML, except the `text` of
 * every `password="true"` node, which becomes HIDDEN_PASSWORD_TEXT. A real device reports
 * bullets there, but some views report the plain text, and the harness never repeats either.
 * An empty text, or the field's own hint while it shows it (the hint attribute carries the
 * same string), stays as it is. Throws like parseDump on XML it cannot read.
 */
export function redactPasswordTexts(xml: string): string {
  const spans: (readonly [number, number])[] = [];
  readHierarchy(xml, (node, tag) => {
    if (node.password && tag.textSpan !== null && !keepsPasswordText(node)) spans.push(tag.textSpan);
  });
  if (spans.length === 0) return xml;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += xml.slice(at, start) + HIDDEN_PASSWORD_TEXT;
    at = end;
  }
  return out + xml.slice(at);
}

type NodeVisitor = (node: MutableNode, tag: OpenTag) => void;

function readHierarchy(xml: string, visit?: NodeVisitor): UiTree {
  if (typeof xml !== 'string') throw unavailable('the dump was not text');
  const start = findHierarchyStart(xml);
  if (start < 0) throw unavailable(explainMissingHierarchy(xml));
  const rootTag = readOpenTag(xml, start, xml.length);
  const rotation = toInt(rootTag.attrs.get('rotation'));
  const width = toInt(rootTag.attrs.get('width'));
  const height = toInt(rootTag.attrs.get('height'));
  const declaredSize = width !== null && height !== null && width > 0 && height > 0 ? { width, height } : null;

  const nodes: MutableNode[] = [];
  const roots: MutableNode[] = [];
  if (!rootTag.selfClosing) {
    const closeAt = xml.lastIndexOf('</hierarchy');
    if (closeAt < rootTag.end) throw unavailable('the dump ends before </hierarchy> (it was cut short)');
    scanChildren(xml, rootTag.end, closeAt, nodes, roots, visit);
  }
  if (nodes.length === 0) throw unavailable('the hierarchy has no nodes (the app may still be starting)');
  trimIntoScrollableAncestors(nodes);
  return { nodes: nodes as UiNode[], roots: roots as UiNode[], rotation, declaredSize };
}

/**
 * Bounds as the UiAutomator2 server reports them, whichever tool printed the XML. The server
 * (AxNodeInfoHelper.getVisibleBoundsInScreen, default `simpleBoundsCalculation: false`) trims a
 * node's rectangle into the visible rectangle of its nearest scrollable ancestor, while
 * `uiautomator dump` only clips to the display: a Compose row drawn into its list's padding is
 * [0,338][936,482] in the dump and [24,338][936,482] in the page source. Read both the same way,
 * a ref taken from a dump names the same element in the session's page source, and the centre
 * the summary plans a tap for is the one the server's click presses. android.graphics.Rect's
 * `intersect`: only when the two overlap, and then in place (inverted bounds stay inverted).
 * A page source is already trimmed, so trimming it again changes nothing. Nodes come in document
 * order, so an ancestor is trimmed before its descendants.
 */
function trimIntoScrollableAncestors(nodes: readonly MutableNode[]): void {
  // Each node's nearest scrollable ancestor, from its parent's: one pass, however deep the tree.
  const nearest = new Map<MutableNode, MutableNode | null>();
  for (const node of nodes) {
    const parent = node.parent;
    const ancestor = parent === null ? null : parent.scrollable ? parent : (nearest.get(parent) ?? null);
    nearest.set(node, ancestor);
    const b = node.bounds;
    if (b === null) continue;
    const a = ancestor?.bounds;
    if (!a || !(b.left < a.right && a.left < b.right && b.top < a.bottom && a.top < b.bottom)) continue;
    const trimmed = {
      left: Math.max(b.left, a.left),
      top: Math.max(b.top, a.top),
      right: Math.min(b.right, a.right),
      bottom: Math.min(b.bottom, a.bottom),
    };
    if (trimmed.left !== b.left || trimmed.top !== b.top || trimmed.right !== b.right || trimmed.bottom !== b.bottom)
      node.bounds = trimmed;
  }
}

function findHierarchyStart(xml: string): number {
  let from = 0;
  for (;;) {
    const at = xml.indexOf('<hierarchy', from);
    if (at < 0) return -1;
    const next = xml.charCodeAt(at + 10);
    if (isSpace(next) || next === 62 || next === 47) return at;
    from = at + 10;
  }
}

function scanChildren(
  xml: string,
  from: number,
  limit: number,
  nodes: MutableNode[],
  roots: MutableNode[],
  visit?: NodeVisitor,
): void {
  const stack: { node: MutableNode; tag: string }[] = [];
  let i = from;
  while (i < limit) {
    const lt = xml.indexOf('<', i);
    if (lt < 0 || lt >= limit) break;
    const c = xml.charCodeAt(lt + 1);
    if (c === 47 /* / */) {
      const gt = xml.indexOf('>', lt);
      if (gt < 0 || gt >= limit) throw unavailable('a closing tag is not terminated');
      const name = xml.slice(lt + 2, gt).trim();
      const top = stack.pop();
      if (!top || top.tag !== name) {
        throw unavailable(
          `</${name.slice(0, 60)}> does not match the open tag${top ? ` <${top.tag.slice(0, 60)}>` : ''}`,
        );
      }
      i = gt + 1;
    } else if (c === 63 /* ? */) {
      i = skipPast(xml, lt + 2, '?>', limit, 'processing instruction');
    } else if (c === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) i = skipPast(xml, lt + 4, '-->', limit, 'comment');
      else if (xml.startsWith('<![CDATA[', lt)) i = skipPast(xml, lt + 9, ']]>', limit, 'CDATA section');
      else i = skipPast(xml, lt + 2, '>', limit, 'declaration');
    } else {
      const tag = readOpenTag(xml, lt, limit);
      const parent = stack.length > 0 ? stack[stack.length - 1]!.node : null;
      const node = makeNode(tag, nodes.length, parent);
      visit?.(node, tag);
      nodes.push(node);
      if (parent) parent.children.push(node);
      else roots.push(node);
      if (!tag.selfClosing) stack.push({ node, tag: tag.name });
      i = tag.end;
    }
  }
  if (stack.length > 0) throw unavailable(`<${stack[stack.length - 1]!.tag.slice(0, 60)}> is never closed`);
}
