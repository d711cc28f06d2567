/**
 * The server builds every locator from a validated selector; nothing the caller
 * sends is ever spliced into XPath except through `xpathLiteral`.
 *
 * Page-source XPath in UiAutomator2 runs over class-named tags, so every expression starts with
 * `//*` and tests classes through the `class` attribute (or the tag name, for old sources without it).
 * `matchSelector` (matcher.ts) implements exactly these predicates.
 */
import {
  STATE_FLAGS,
  unexpandedId,
  type Selector,
  type SelectorTerm,
  type StateFlag,
  type StateFlags,
} from './selector.js';
import type { Locator } from '../ports.js';

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
    case 'id':
      throw unexpandedId('termPredicate');
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
    case 'text_starts_with':
      return `starts-with(@text, ${l}) and ${NOT_PASSWORD}`;
    case 'content_desc_contains':
      return `contains(@content-desc, ${l})`;
    case 'class_name':
      // Old page sources carry the class only as the tag name (dump.ts reads it from there too).
      return `(@class=${l} or (not(@class) and local-name()=${l}))`;
    case 'resource_id_matches':
      // Never reaches XPath: buildLocator sends it as a UiSelector (XPath 1.0 has no regex).
      throw new Error('resource_id_matches has no XPath form');
  }
}

/** The page-source attribute of each flag, and its value when the attribute is absent (dump.ts's defaults). */
const FLAG_ATTRIBUTE: Readonly<Record<StateFlag, { attribute: string; absentMeans: boolean }>> = {
  checked: { attribute: 'checked', absentMeans: false },
  selected: { attribute: 'selected', absentMeans: false },
  enabled: { attribute: 'enabled', absentMeans: true },
  focused: { attribute: 'focused', absentMeans: false },
};

/** XPath predicates for the flags; an absent attribute counts as its default, as the matcher reads it. */
function statePredicates(states: StateFlags | undefined): string[] {
  const out: string[] = [];
  for (const flag of STATE_FLAGS) {
    const wanted = states?.[flag];
    if (wanted === undefined) continue;
    const { attribute, absentMeans } = FLAG_ATTRIBUTE[flag];
    // Compare with the value that differs from the default, so a missing attribute reads as the default.
    const odd = absentMeans ? 'false' : 'true';
    out.push(wanted === absentMeans ? `not(@${attribute}='${odd}')` : `@${attribute}='${odd}'`);
  }
  return out;
}

/** A Java string literal as UiAutomator2's UiSelector parser reads it: only `\"` is an escape. */
function uiSelectorString(value: string): string {
  // The dialect (idPattern.ts) refuses `"` and a literal backslash, so nothing here can end the
  // literal early or turn the closing quote into `\"`.
  if (value.includes('"') || value.endsWith('\\')) throw new Error('value cannot be a UiSelector string literal');
  return `"${value}"`;
}

/** `new UiSelector().resourceIdMatches("…")` with the flags and instance the selector adds. */
function uiSelectorLocator(selector: Selector): Locator {
  let chain = `new UiSelector().resourceIdMatches(${uiSelectorString(selector.target.value)})`;
  for (const flag of STATE_FLAGS) {
    const wanted = selector.states?.[flag];
    if (wanted !== undefined) chain += `.${flag}(${wanted ? 'true' : 'false'})`;
  }
  if (selector.instance !== undefined) chain += `.instance(${selector.instance})`;
  return { using: '-android uiautomator', value: chain };
}

/** The locator for a validated selector. */
export function buildLocator(selector: Selector): Locator {
  const { target, within } = selector;
  // The package an id stands for is known only at resolve time (selector.ts, expandIds).
  if (target.key === 'id' || within?.key === 'id') throw unexpandedId('buildLocator');
  if (target.key === 'resource_id_matches') return uiSelectorLocator(selector);
  const states = statePredicates(selector.states);
  if (states.length > 0 || selector.instance !== undefined) {
    const parts = [`(${termPredicate(target)})`, ...states];
    if (within) parts.push(`ancestor::*[${termPredicate(within)}]`);
    const path = `//*[${parts.join(' and ')}]`;
    // XPath positions are 1-based; `instance` is 0-based, as UiSelector's.
    return { using: 'xpath', value: selector.instance === undefined ? path : `(${path})[${selector.instance + 1}]` };
  }
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
