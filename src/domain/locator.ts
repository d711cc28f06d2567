// STUB: signatures pinned for the other layers; the domain work replaces the bodies.
import type { Selector } from './selector.js';
import type { Locator } from './ports.js';

/** An XPath 1.0 string literal for any value: '…', "…" or concat(…) when it holds both quotes. */
export function xpathLiteral(value: string): string {
  throw new Error(`not implemented ${value}`);
}
/** CONTRACT §7 locator for a validated selector. */
export function buildLocator(selector: Selector): Locator {
  throw new Error(`not implemented ${selector.target.key}`);
}
