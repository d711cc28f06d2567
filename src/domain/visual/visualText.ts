/**
 * Which selectors text read from pixels can answer (docs/reference/summary.md, "Visual refs"): a
 * bare `text` or `text_contains`, compared as visual entries are compared with the tree's labels
 * (NFKC, lower case, letters and digits only), since OCR's spacing and punctuation are not evidence.
 * Anything else names what only the tree has (an id, a description, a hint, a container, a state):
 * pixels cannot say it, so such a selector never looks at them.
 */
import type { Selector } from '../selectors/selector.js';
import { normalise } from './visualEntries.js';

/** The test a visual entry's text must pass for `selector`, or null when pixels cannot answer it. */
export function visualTextTest(selector: Selector): ((text: string) => boolean) | null {
  if (selector.within !== undefined || selector.states !== undefined || selector.instance !== undefined) return null;
  const wanted = normalise(selector.target.value);
  // A value with no letter or digit would match every line (or none): the tree alone answers it.
  if (wanted === '') return null;
  if (selector.target.key === 'text') return (text) => normalise(text) === wanted;
  if (selector.target.key === 'text_contains') return (text) => normalise(text).includes(wanted);
  return null;
}
