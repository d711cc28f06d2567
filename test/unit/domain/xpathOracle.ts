/**
 * Test-only oracle: evaluates a built locator against raw XML with a real XPath 1.0 engine
 * (xpath + @xmldom/xmldom), so locator.ts is checked against XPath itself, not against the
 * domain matcher that mirrors it.
 */
import { DOMParser } from '@xmldom/xmldom';
import xpath from 'xpath';
import type { Locator } from '../../../src/domain/ports.js';

export type XmlDoc = ReturnType<DOMParser['parseFromString']>;
export type XmlElement = NonNullable<XmlDoc['documentElement']>;

export function parseXml(xml: string): XmlDoc {
  const start = xml.indexOf('<hierarchy');
  const end = xml.lastIndexOf('</hierarchy>');
  const body = end >= 0 ? xml.slice(start, end + '</hierarchy>'.length) : xml.slice(start);
  return new DOMParser({ onError: () => undefined }).parseFromString(body, 'text/xml');
}

/** Elements below <hierarchy> in document order (the nodes of the domain's UiTree). */
export function allNodes(doc: XmlDoc): XmlElement[] {
  return xpath.select('/hierarchy//*', doc as unknown as Node) as unknown as XmlElement[];
}

/**
 * The page source the UiAutomator2 server would serve for this dump: the same elements, with the
 * bounds it reports (trimmed into the nearest scrollable ancestor, as `parseDump` reads them).
 */
export function asServerSource(
  doc: XmlDoc,
  bounds: readonly ({ left: number; top: number; right: number; bottom: number } | null)[],
): XmlDoc {
  allNodes(doc).forEach((el, i) => {
    const b = bounds[i];
    if (b) el.setAttribute('bounds', `[${b.left},${b.top}][${b.right},${b.bottom}]`);
  });
  return doc;
}

/** What the device would find for `locator` (id → resource-id equality, accessibility id → content-desc). */
export function evaluateLocator(doc: XmlDoc, locator: Locator): XmlElement[] {
  if (locator.using === 'xpath') {
    return xpath.select(locator.value, doc as unknown as Node) as unknown as XmlElement[];
  }
  const attr = locator.using === 'id' ? 'resource-id' : 'content-desc';
  return allNodes(doc).filter((el) => el.getAttribute(attr) === locator.value);
}
