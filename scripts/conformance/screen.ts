/**
 * The screen a recording needs: for every find the real server answered with elements, one or
 * more nodes that satisfy its selector, read from the selector's literal constraints (class,
 * text, content-desc, resource-id, index, `[n]` / `.instance(n)` positions). The replay then asks
 * the double's own locator; a selector this reading gets wrong shows up as a mismatch.
 */
import { isStructural, xpathTree, type TreeNode } from './xpathTree.js';

export interface NodeWish {
  cls: string;
  attrs: Record<string, string>;
  /** How many such nodes the selector needs (`(//x)[3]` needs 3). */
  count: number;
  /** A structural xpath: the nodes are the tree it implies (xpathTree.ts), not one flat node. */
  xpath?: string;
  /** The found element was typed into: a node of no named class is written as an EditText. */
  editable?: boolean;
}

const q = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function fromXpath(selector: string): NodeWish | null {
  // Steps are read outside quoted values (`@resource-id="android:id/message"` is no step).
  const steps = selector.replace(/'[^']*'|"[^"]*"/g, "''").match(/\/\/?([\w.*$]+)/g);
  const last = steps?.at(-1)?.replace(/^\/\/?/, '');
  if (!last) return null;
  const wish: NodeWish = { cls: last === '*' ? 'android.view.View' : last, attrs: {}, count: 1 };
  for (const m of selector.matchAll(/@([\w-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")/g)) wish.attrs[m[1]!] = m[2] ?? m[3] ?? '';
  for (const m of selector.matchAll(/contains\(@([\w-]+)\s*,\s*(?:'([^']*)'|"([^"]*)")\)/g))
    wish.attrs[m[1]!] = m[2] ?? m[3] ?? '';
  const position = /\)\[(\d+)\]\s*$/.exec(selector);
  if (position) wish.count = Number(position[1]);
  return wish;
}

function fromUiSelector(selector: string): NodeWish {
  // The innermost selector of a UiScrollable(...).scrollIntoView(...) is the element returned.
  const target = /scrollIntoView\((.*)\)/.exec(selector)?.[1] ?? selector;
  const wish: NodeWish = { cls: 'android.widget.TextView', attrs: {}, count: 1 };
  const map: Record<string, string> = {
    text: 'text',
    textContains: 'text',
    textStartsWith: 'text',
    description: 'content-desc',
    descriptionContains: 'content-desc',
    resourceId: 'resource-id',
  };
  for (const m of target.matchAll(/\.?(\w+)\(\s*"([^"]*)"\s*\)/g)) {
    const [, fn, value] = m;
    if (fn === 'className') wish.cls = value!;
    else if (fn === 'resourceIdMatches')
      wish.attrs['resource-id'] = value!.replace(/\.\+$|\.\*$/, 'x').replace(/\\/g, '');
    else if (fn && map[fn]) wish.attrs[map[fn]] = value!;
  }
  for (const m of target.matchAll(/\.?(selected|checked|clickable|enabled|scrollable)\((true|false)\)/g))
    wish.attrs[m[1]!] = m[2]!;
  const instance = /\.instance\((\d+)\)/.exec(target);
  if (instance) wish.count = Number(instance[1]) + 1;
  return wish;
}

/** What a find's selector asks of the screen, or null when it cannot be read. */
export function wishFor(strategy: string, selector: string, pkg: string): NodeWish | null {
  switch (strategy) {
    case 'id':
      return {
        cls: 'android.widget.TextView',
        attrs: { 'resource-id': selector.includes(':id/') ? selector : `${pkg}:id/${selector}` },
        count: 1,
      };
    case 'accessibility id':
      return { cls: 'android.widget.TextView', attrs: { 'content-desc': selector }, count: 1 };
    case 'class name':
      return { cls: selector, attrs: {}, count: 1 };
    case 'xpath':
      if (isStructural(selector)) return xpathTree(selector) ? { cls: '', attrs: {}, count: 1, xpath: selector } : null;
      return fromXpath(selector);
    case '-android uiautomator':
      return fromUiSelector(selector);
    default:
      return null;
  }
}

/** One node as uiautomator writes it; the attributes a selector named override the defaults. */
function nodeXml(
  cls: string,
  a: Record<string, string>,
  index: number,
  bounds: readonly [number, number, number, number],
  pkg: string,
  children = '',
): string {
  const [l, t, r, b] = bounds;
  const editable = /EditText/.test(cls);
  const attr = (name: string, fallback: string): string => `${name}="${q(a[name] ?? fallback)}"`;
  const open = [
    attr('index', String(index)),
    attr('text', ''),
    attr('resource-id', ''),
    `class="${q(cls)}"`,
    `package="${q(pkg)}"`,
    attr('content-desc', ''),
    attr('checkable', 'false'),
    attr('checked', 'false'),
    attr('clickable', 'true'),
    attr('enabled', 'true'),
    attr('focusable', String(editable)),
    attr('focused', 'false'),
    attr('scrollable', 'false'),
    attr('long-clickable', 'true'),
    // A selector asking for `@password='true'` found a password field on the real screen.
    attr('password', 'false'),
    attr('selected', 'false'),
    `bounds="[${l},${t}][${r},${b}]"`,
  ].join(' ');
  return children ? `<node ${open}>${children}</node>` : `<node ${open} />`;
}

/** A built tree inside `bounds`: children share their parent's width, each a little lower than it. */
function treeXml(
  n: TreeNode,
  index: number,
  bounds: readonly [number, number, number, number],
  pkg: string,
  target: TreeNode | undefined,
  editable: boolean,
): string {
  const [l, t, r, b] = bounds;
  const width = Math.max(1, Math.floor((r - l) / Math.max(1, n.children.length)));
  const children = n.children
    .map((c, i) =>
      treeXml(c, i, [l + i * width, t + 4, l + (i + 1) * width, Math.max(t + 6, b - 2)], pkg, target, editable),
    )
    .join('');
  const cls = n.cls ?? (n === target && editable ? 'android.widget.EditText' : 'android.widget.FrameLayout');
  return nodeXml(cls, n.attrs, index, bounds, pkg, children);
}

/**
 * A uiautomator dump with the wished nodes laid on a grid below the status bar, all visible; the
 * trees that structural xpaths imply follow the grid, two to a row.
 */
export function screenXml(wishes: readonly NodeWish[], pkg: string): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="${q(pkg)}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${wishedNodes(wishes, pkg)}</node></hierarchy>`;
}

/**
 * A page source the real server gave in the same log, with the wished nodes added as the last
 * children of its top node: an absolute path or an `@index` recorded against that screen finds
 * what it found, and nodes added after a step's siblings change no `[n]` position. Null when the
 * source is no hierarchy with a node that can take children.
 */
export function onPageSource(source: string, wishes: readonly NodeWish[], pkg: string): string | null {
  const end = source.lastIndexOf('</hierarchy>');
  const close = source.lastIndexOf('</node>', end);
  if (end < 0 || close < 0 || !source.includes('<hierarchy')) return null;
  return source.slice(0, close) + wishedNodes(wishes, pkg) + source.slice(close);
}

function wishedNodes(wishes: readonly NodeWish[], pkg: string): string {
  const nodes: string[] = [];
  let index = 0;
  const columns = 6;
  const width = 180;
  const height = 30;
  const trees: NodeWish[] = [];
  for (const wish of wishes) {
    if (wish.xpath !== undefined) {
      trees.push(wish);
      continue;
    }
    for (let n = 0; n < wish.count; n++) {
      const col = index % columns;
      const row = Math.floor(index / columns);
      const left = col * width;
      const top = 80 + row * height;
      nodes.push(
        nodeXml(wish.cls, wish.attrs, Number(wish.attrs.index ?? index), [left, top, left + width, top + height], pkg),
      );
      index++;
    }
  }
  const treesTop = 80 + Math.ceil(index / columns) * height + 10;
  trees.forEach((wish, i) => {
    const tree = xpathTree(wish.xpath ?? '');
    if (!tree) return;
    const left = (i % 2) * 540;
    const top = treesTop + Math.floor(i / 2) * 100;
    nodes.push(
      treeXml(tree.top, index + i, [left, top, left + 540, top + 96], pkg, tree.target, wish.editable === true),
    );
  });
  return nodes.join('');
}
