/**
 * What an exported step carries besides its call: the input a typed text becomes, and the screen
 * expected after it (docs/guide/usage.md, "Flow inputs" and "Replays that check where they are").
 */
import type { FlowExpect } from '../../flow/flowFile.js';
import { INPUT_NAME } from '../../flow/flowInputs.js';
import type { BookScreen } from '../../flow/screenBook.js';

/** How many texts a step expects: enough to tell screens apart, few enough to survive a renamed label. */
export const EXPECTED_TEXTS = 3;

/** Labels that say a field takes a secret: what is typed there is never written. */
const SECRET_LABEL = /pass(word|code|phrase)?|\bpin\b|secret|token|\botp\b|one[- ]time/i;

export function isSecretLabel(label: string): boolean {
  return SECRET_LABEL.test(label);
}

/** A new input name for a field called `label`, unique among `taken`. */
export function inputNameFor(label: string, taken: ReadonlySet<string>): string {
  let base = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 30);
  if (base === '') base = 'text';
  if (!/^[a-z]/.test(base)) base = `text_${base}`;
  let name = base;
  for (let n = 2; taken.has(name) || !INPUT_NAME.test(name); n += 1) name = `${base}_${n}`;
  return name;
}

/**
 * The screen after a step as a replay checks it: the package in front and up to EXPECTED_TEXTS
 * strings it showed, the screen's own texts first (titles, headings), then its entries' names.
 * Left out: strings with digits (clocks, counters, dates change between runs), long ones, and
 * what fields hold (typed text, and a secret's never).
 */
export function expectedAfter(screen: BookScreen | null, foreground: string | null): FlowExpect | null {
  const packageName = foreground ?? screen?.foreground_package ?? null;
  if (packageName === null && screen === null) return null;
  const texts: string[] = [];
  // What the fields hold now is typed text (an input of the flow): no expected text may quote it,
  // as "Account created for <ada@example.com>" would.
  const held = (screen?.actions ?? []).flatMap((entry) =>
    entry.role === 'input' && entry.empty !== true
      ? [entry.label, entry.text].filter((value): value is string => typeof value === 'string' && value.length >= 2)
      : [],
  );
  const offer = (value: unknown): void => {
    if (typeof value !== 'string' || texts.length >= EXPECTED_TEXTS) return;
    const text = value.trim();
    if (text.length < 2 || text.length > 40 || /\d/.test(text) || texts.includes(text)) return;
    if (held.some((typed) => text.includes(typed))) return;
    texts.push(text);
  };
  for (const text of screen?.texts ?? []) offer(text);
  for (const entry of screen?.actions ?? []) {
    if (entry.role === 'input') continue;
    offer(entry.label ?? entry.text ?? entry.content_desc);
  }
  return {
    ...(packageName !== null ? { package: packageName } : {}),
    ...(texts.length > 0 ? { texts } : {}),
  };
}
