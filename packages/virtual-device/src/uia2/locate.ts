/** Element location by the strategies UiAutomator2 accepts, over the rendered tree. */
import { DOMParser, type Element as XmlElement, type Node as XmlNode } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import { toPageSource } from '../device/serialize.js';
import { serverBounds } from './bounds.js';
import { flatten, type UiElement } from '../device/uiTree.js';
import { matchSelector, parseUiSelector, UiSelectorSyntaxError, type SelectorChain } from './uiSelector.js';

export class InvalidSelectorError extends Error {}

export type Strategy = 'id' | 'accessibility id' | 'xpath' | '-android uiautomator' | 'class name';

export interface LocateScope {
  readonly root: UiElement;
  /** Search below this element instead of the whole tree. */
  readonly context: UiElement | null;
  readonly currentPackage: string;
  /** Scrolls a scrollable element by a delta; returns whether it moved (UiScrollable). */
  scroll(element: UiElement, delta: number): boolean;
  /** The tree after a scroll. */
  refresh(): UiElement;
}

/** Builds the page-source DOM and maps its elements back to the rendered nodes (document order on both sides). */
function xpathSelect(root: UiElement, context: UiElement | null, expression: string): UiElement[] {
  const doc = new DOMParser().parseFromString(toPageSource(root, undefined, serverBounds), 'text/xml');
  const xmlElements: XmlElement[] = [];
  const walk = (n: XmlNode): void => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 1) {
        xmlElements.push(c as XmlElement);
        walk(c);
      }
    }
  };
  const hierarchy = doc.documentElement;
  if (!hierarchy) return [];
  walk(hierarchy);
  const rendered = flatten(root);
  const toElement = new Map<XmlNode, UiElement>();
  xmlElements.forEach((x, i) => {
    const e = rendered[i];
    if (e) toElement.set(x, e);
  });
  let contextNode: XmlNode = doc;
  if (context) {
    const i = rendered.indexOf(context);
    const x = xmlElements[i];
    if (x) contextNode = x;
  }
  let result: xpath.SelectReturnType;
  try {
    result = xpath.select(expression, contextNode as unknown as Node);
  } catch (e) {
    throw new InvalidSelectorError(
      `Unable to locate element: invalid XPath expression ${JSON.stringify(expression)}: ${(e as Error).message}`,
    );
  }
  if (!Array.isArray(result))
    throw new InvalidSelectorError(`The XPath ${JSON.stringify(expression)} does not select elements`);
  return result.map((n) => toElement.get(n as unknown as XmlNode)).filter((e): e is UiElement => e !== undefined);
}

function scrollIntoView(chain: SelectorChain, scope: LocateScope): UiElement[] {
  const container = chain.ctorArgs[0];
  const scrollCall = chain.calls.find(
    (c) => c.name === 'scrollIntoView' || c.name === 'scrollTextIntoView' || c.name === 'getChildByText',
  );
  if (!scrollCall)
    throw new InvalidSelectorError(
      'UiScrollable needs scrollIntoView(…) or scrollTextIntoView("…") on the virtual device',
    );
  const targetArg = scrollCall.name === 'getChildByText' ? scrollCall.args[1] : scrollCall.args[0];
  const target: SelectorChain =
    typeof targetArg === 'object'
      ? targetArg
      : { kind: 'UiSelector', ctorArgs: [], calls: [{ name: 'textContains', args: [String(targetArg ?? '')] }] };
  let root = scope.root;
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = matchSelector(target, [root]);
    if (found.length > 0) return found;
    const scroller =
      typeof container === 'object' ? matchSelector(container, [root])[0] : flatten(root).find((e) => e.scrollable);
    if (!scroller) return [];
    const delta =
      attempt < 25
        ? Math.floor((scroller.bounds.bottom - scroller.bounds.top) / 2)
        : -Math.floor((scroller.bounds.bottom - scroller.bounds.top) / 2);
    if (!scope.scroll(scroller, delta) && attempt < 25) {
      // Reached the end going down: search upwards from here.
      attempt = 24;
    }
    root = scope.refresh();
  }
  return [];
}

export function locate(strategy: string, selector: string, scope: LocateScope): UiElement[] {
  const roots = scope.context ? scope.context.children : [scope.root];
  const all = scope.context ? roots.flatMap((r) => flatten(r)) : flatten(scope.root);
  switch (strategy) {
    case 'id': {
      const id = selector.includes(':id/') ? selector : `${scope.currentPackage}:id/${selector}`;
      return all.filter((e) => e.resourceId === id);
    }
    case 'accessibility id':
      return all.filter((e) => e.contentDesc === selector);
    case 'class name':
      return all.filter((e) => e.className === selector);
    case 'xpath':
      return xpathSelect(scope.root, scope.context, selector);
    case '-android uiautomator': {
      let chains: SelectorChain[];
      try {
        chains = parseUiSelector(selector);
      } catch (e) {
        if (e instanceof UiSelectorSyntaxError) throw new InvalidSelectorError(e.message);
        throw e;
      }
      const out: UiElement[] = [];
      for (const chain of chains) {
        try {
          const found = chain.kind === 'UiScrollable' ? scrollIntoView(chain, scope) : matchSelector(chain, roots);
          for (const f of found) if (!out.includes(f)) out.push(f);
        } catch (e) {
          if (e instanceof UiSelectorSyntaxError) throw new InvalidSelectorError(e.message);
          throw e;
        }
      }
      return out;
    }
    default:
      throw new InvalidSelectorError(`Locator strategy '${strategy}' is not supported for this session`);
  }
}
