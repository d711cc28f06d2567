/**
 * Replays that check where they are (docs/guide/usage.md, "Replays that check where they are"): a step
 * that carries `expect` (the screen recorded after it) is followed by a comparison with the screen
 * its answer shows. The package in front must be the one expected, and at least half of the
 * expected texts (rounded up) must be on the screen: a label renamed since the recording leaves
 * the others to say it is still the same screen, while another screen shares none of them.
 */
import type { FlowExpect } from './flowFile.js';
import { namesOn, type BookScreen } from './screenBook.js';

export const SCREEN_MISMATCH = 'SCREEN_MISMATCH';

/** How many of `n` expected texts must be found. */
export function textsNeeded(n: number): number {
  return Math.ceil(n / 2);
}

/** null when the screen is the one expected; else the words "expected … found …". */
export function screenMismatch(
  expected: FlowExpect,
  foreground: string | null,
  screen: BookScreen | null,
): string | null {
  const texts = expected.texts ?? [];
  const packageWrong = expected.package !== undefined && foreground !== null && foreground !== expected.package;
  const names = screen ? namesOn(screen) : null;
  const found = names ? texts.filter((text) => names.has(text)) : texts;
  const textsWrong = found.length < textsNeeded(texts.length);
  if (!packageWrong && !textsWrong) return null;
  const expectedWords = `${expected.package ?? 'any package'}${texts.length > 0 ? ` showing ${quoteAll(texts)} (at least ${textsNeeded(texts.length)})` : ''}`;
  const shown = names ? [...names].slice(0, 8) : [];
  const foundWords = `${foreground ?? 'an unknown package'}${shown.length > 0 ? ` showing ${quoteAll(shown)}${names && names.size > shown.length ? ', …' : ''}` : ''}`;
  return `expected ${expectedWords}; found ${foundWords}. The screen is not the one recorded after this step: the app drifted, or a step before went elsewhere. Look at the step's evidence, then fix the flow (or record it again).`;
}

function quoteAll(texts: readonly string[]): string {
  return texts.map((text) => `'${text}'`).join(', ');
}
