/**
 * Reads a real `uiautomator dump` (`<node class=…>`) or an Appium page source (class-named
 * tags) into node specs, so any captured screen can be shown as a static screen.
 */
import { DOMParser, type Element as XmlElement } from '@xmldom/xmldom';
import type { BoundsTuple, NodeSpec } from './model.js';

const ELEMENT_NODE = 1;

function childElements(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === ELEMENT_NODE) out.push(n as XmlElement);
  return out;
}

function parseBoundsAttr(value: string | null): BoundsTuple {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec((value ?? '').trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : [0, 0, 0, 0];
}

function toSpec(el: XmlElement): NodeSpec {
  const attr = (name: string): string => el.getAttribute(name) ?? '';
  const flag = (name: string): boolean => attr(name) === 'true';
  const cls = attr('class') || (el.tagName === 'node' ? 'android.view.View' : el.tagName);
  const children = childElements(el).map(toSpec);
  const spec: NodeSpec = {
    class: cls,
    bounds: parseBoundsAttr(el.getAttribute('bounds')),
    ...(attr('text') ? { text: attr('text') } : {}),
    ...(attr('resource-id') ? { resourceId: attr('resource-id') } : {}),
    ...(attr('content-desc') ? { contentDesc: attr('content-desc') } : {}),
    ...(attr('hint') ? { hint: attr('hint') } : {}),
    ...(attr('package') ? { package: attr('package') } : {}),
    checkable: flag('checkable'),
    checked: flag('checked'),
    clickable: flag('clickable'),
    enabled: attr('enabled') === '' ? true : flag('enabled'),
    focusable: flag('focusable'),
    focused: flag('focused'),
    scrollable: flag('scrollable'),
    longClickable: flag('long-clickable'),
    password: flag('password'),
    selected: flag('selected'),
    ...(children.length > 0 ? { children } : {}),
  };
  return spec;
}

export interface ImportedScreen {
  readonly root: NodeSpec;
  /** The package of the first node that names one. */
  readonly package: string;
  /** `<hierarchy rotation>` (0 when absent or not 0–3). */
  readonly rotation: 0 | 1 | 2 | 3;
  /** The frame the bounds are measured in: the page source's declared width and height, else the windows' extent. */
  readonly frame: { readonly width: number; readonly height: number } | null;
}

/** Throws with a message naming the problem when the text is not a hierarchy. */
export function importHierarchyXml(xml: string): ImportedScreen {
  const start = xml.indexOf('<hierarchy');
  const end = xml.lastIndexOf('</hierarchy>');
  if (start < 0 || end < 0)
    throw new Error('The XML holds no <hierarchy> element; pass a uiautomator dump or an Appium page source.');
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(xml.slice(start, end + '</hierarchy>'.length), 'text/xml');
  if (errors.length > 0) throw new Error(`The hierarchy XML is not well formed: ${errors[0]}`);
  const hierarchy = doc.documentElement;
  if (!hierarchy) throw new Error('The hierarchy XML has no root element.');
  const tops = childElements(hierarchy as unknown as XmlElement).map(toSpec);
  const first = tops[0];
  if (!first) throw new Error('The hierarchy is empty: it holds no node.');
  const root: NodeSpec =
    tops.length === 1
      ? first
      : {
          class: 'android.widget.FrameLayout',
          bounds: [
            Math.min(...tops.map((t) => t.bounds[0])),
            Math.min(...tops.map((t) => t.bounds[1])),
            Math.max(...tops.map((t) => t.bounds[2])),
            Math.max(...tops.map((t) => t.bounds[3])),
          ],
          children: tops,
        };
  const findPackage = (n: NodeSpec): string | undefined =>
    n.package ?? n.children?.map(findPackage).find((p) => p !== undefined);
  const attr = (name: string): number =>
    Number.parseInt((hierarchy as unknown as XmlElement).getAttribute(name) ?? '', 10);
  const turn = attr('rotation');
  const rotation = turn === 1 || turn === 2 || turn === 3 ? turn : 0;
  const declared = { width: attr('width'), height: attr('height') };
  const frame =
    declared.width > 0 && declared.height > 0
      ? declared
      : root.bounds[2] > 0 && root.bounds[3] > 0
        ? { width: root.bounds[2], height: root.bounds[3] }
        : null;
  return { root, package: findPackage(root) ?? 'android', rotation, frame };
}
