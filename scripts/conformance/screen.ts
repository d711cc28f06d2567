/**
 * The screen a recording needs: for every find the real server answered with elements, one or
 * more nodes that satisfy its selector, read from the selector's literal constraints (class,
 * text, content-desc, resource-id, index, `[n]` / `.instance(n)` positions). The replay then asks
 * the double's own locator; a selector this reading gets wrong shows up as a mismatch.
 */

export interface NodeWish {
  cls: string;
  attrs: Record<string, string>;
  /** How many such nodes the selector needs (`(//x)[3]` needs 3). */
  count: number;
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
      return fromXpath(selector);
    case '-android uiautomator':
      return fromUiSelector(selector);
    default:
      return null;
  }
}

/** A uiautomator dump with the wished nodes laid on a grid below the status bar, all visible. */
export function screenXml(wishes: readonly NodeWish[], pkg: string): string {
  const nodes: string[] = [];
  let index = 0;
  const columns = 6;
  const width = 180;
  const height = 30;
  for (const wish of wishes) {
    for (let n = 0; n < wish.count; n++) {
      const col = index % columns;
      const row = Math.floor(index / columns);
      const left = col * width;
      const top = 80 + row * height;
      const a = wish.attrs;
      const editable = /EditText/.test(wish.cls);
      nodes.push(
        `<node index="${q(a.index ?? String(index))}" text="${q(a.text ?? '')}" resource-id="${q(a['resource-id'] ?? '')}" class="${q(wish.cls)}" package="${q(pkg)}" content-desc="${q(a['content-desc'] ?? '')}" checkable="false" checked="${a.checked ?? 'false'}" clickable="true" enabled="${a.enabled ?? 'true'}" focusable="${editable}" focused="false" scrollable="${a.scrollable ?? 'false'}" long-clickable="true" password="false" selected="${a.selected ?? 'false'}" bounds="[${left},${top}][${left + width},${top + height}]" />`,
      );
      index++;
    }
  }
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="${q(pkg)}" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">${nodes.join('')}</node></hierarchy>`;
}
