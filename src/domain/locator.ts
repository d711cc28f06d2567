/**
 * CONTRACT §7: the server builds every locator from a validated selector; nothing the caller
 * sends is ever spliced into XPath except through `xpathLiteral`.
 *
 * Page-source XPath in UiAutomator2 runs over class-named tags, so every expression starts with
 * `//*` and tests classes through the `class` attribute (or the tag name, for old sources without it).
 * `matchSelector` (matcher.ts) implements exactly these predicates.
 */
import type { Selector, SelectorTerm } from './selector.js';
import type { Locator } from './ports.js';

/** An XPath 1.0 string literal for any value: '…', "…" or concat(…) when it holds both quotes. */
export function xpathLiteral(value: string): string {
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  // XPath 1.0 has no escape inside literals: split on ' and glue the pieces with "'".
  const pieces = value.split("'").map((piece) => `'${piece}'`);
  return `concat(${pieces.join(`, "'", `)})`;
}

/** `class` ends with EditText (the suffix test XPath 1.0 can express; `ends-with` is XPath 2). */
const IS_EDIT_TEXT =
  "(substring(@class, string-length(@class) - 7) = 'EditText'" +
  " or substring(local-name(), string-length(local-name()) - 7) = 'EditText')";

/**
 * A password field's text is never matched (matcher.ts): a real device reports bullets there, a
 * custom view may report the plain text, and a selector must not be a way to probe it.
 */
const NOT_PASSWORD = "not(@password='true')";

/** The XPath predicate (without brackets) for one term; mirrors `termMatchesNode`. */
export function termPredicate(term: SelectorTerm): string {
  const l = xpathLiteral(term.value);
  switch (term.key) {
    case 'resource_id':
      return `@resource-id=${l}`;
    case 'content_desc':
      return `@content-desc=${l}`;
    case 'text':
      return `@text=${l} and ${NOT_PASSWORD}`;
    case 'text_contains':
      return `contains(@text, ${l}) and ${NOT_PASSWORD}`;
    case 'input_hint': {
      const has = `contains(@hint, ${l}) or contains(@content-desc, ${l}) or (contains(@text, ${l}) and ${NOT_PASSWORD})`;
      return `${IS_EDIT_TEXT} and (${has} or .//*[${has}])`;
    }
  }
}

/** CONTRACT §7 locator for a validated selector. */
export function buildLocator(selector: Selector): Locator {
  const { target, within } = selector;
  if (within) {
    return { using: 'xpath', value: `//*[(${termPredicate(target)}) and ancestor::*[${termPredicate(within)}]]` };
  }
  if (target.key === 'resource_id' && target.value.includes(':id/')) {
    return { using: 'id', value: target.value };
  }
  if (target.key === 'content_desc') {
    return { using: 'accessibility id', value: target.value };
  }
  // A resource id without ':id/' (React Native testID, Compose testTag) goes as XPath: the `id`
  // strategy would prefix it with the current package and miss the element.
  return { using: 'xpath', value: `//*[${termPredicate(target)}]` };
}
