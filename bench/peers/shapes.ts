/**
 * Converting between the two dump shapes so each peer is fed the shape it really reads:
 * mobile-mcp runs `uiautomator dump` (`<node class=…>`), appium-mcp reads Appium's page source
 * (class names as tags). The attributes are the same in both; only the element names change.
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Document, Element, Node } from '@xmldom/xmldom';

const ELEMENT_NODE = 1;

function elementChildren(node: Node): Element[] {
  const out: Element[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.nodeType === ELEMENT_NODE) out.push(c as Element);
  return out;
}

/** Appium's UiAutomator2 server names a tag after the class, with characters XML forbids replaced. */
export function appiumTagName(className: string): string {
  if (className.trim() === '') return 'android.view.View';
  const safe = className.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

/** Appium's page source carries `displayed`, which a uiautomator dump lacks; appium-mcp echoes it. */
function displayedOf(el: Element): string {
  const m = (el.getAttribute('bounds') ?? '').match(/^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/);
  if (!m) return 'false';
  const [l, t, r, b] = m.slice(1).map(Number) as [number, number, number, number];
  return r > l && b > t ? 'true' : 'false';
}

function rebuild(xml: string, rename: (el: Element) => string, addDisplayed = false): string {
  const src = new DOMParser().parseFromString(xml, 'text/xml');
  const root = src.documentElement;
  if (!root) throw new Error('no document element');
  const out: Document = new DOMParser().parseFromString('<hierarchy/>', 'text/xml');
  const outRoot = out.documentElement as Element;
  for (let i = 0; i < root.attributes.length; i++) {
    const a = root.attributes.item(i);
    if (a) outRoot.setAttribute(a.name, a.value);
  }
  const copy = (from: Element, to: Element): void => {
    for (const child of elementChildren(from)) {
      const el = out.createElement(rename(child));
      for (let i = 0; i < child.attributes.length; i++) {
        const a = child.attributes.item(i);
        if (a) el.setAttribute(a.name, a.value);
      }
      if (addDisplayed && !child.hasAttribute('displayed')) el.setAttribute('displayed', displayedOf(child));
      to.appendChild(el);
      copy(child, el);
    }
  };
  copy(root, outRoot);
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>${new XMLSerializer().serializeToString(out)}`;
}

/** uiautomator `<node class="X">` → Appium page source `<X class="X">`. */
export function toAppiumShape(xml: string, shape: 'uiautomator' | 'appium'): string {
  if (shape === 'appium') return xml;
  return rebuild(xml, (el) => appiumTagName(el.getAttribute('class') ?? ''), true);
}

/** Appium page source `<X …>` → uiautomator `<node …>` (the class attribute is kept; an old source without one gets the tag). */
export function toUiautomatorShape(xml: string, shape: 'uiautomator' | 'appium'): string {
  if (shape === 'uiautomator') return xml;
  return rebuild(xml, () => 'node');
}
