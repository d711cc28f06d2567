/**
 * The canvas library and the one font the screenshots use, loaded once per process.
 *
 * Roboto (Android's own UI font, SIL OFL 1.1) comes from the `@expo-google-fonts/roboto` package,
 * so no system font is assumed: CI machines have none, and a developer's machine may have others.
 * Skia would take a character Roboto lacks from an installed font, which would make the same screen
 * draw differently on two machines; `printable()` turns every such character into a Private Use
 * Area code point, which skia always draws as Roboto's `.notdef` box (tofu), as a phone without the
 * font for that script does.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as NapiCanvas from '@napi-rs/canvas';
import { create } from 'fontkitten';

export type CanvasModule = typeof NapiCanvas;
export type Context = NapiCanvas.SKRSContext2D;

/** The family name the device registers Roboto under, so an installed Roboto is never picked instead. */
export const FAMILY = 'VirtualDeviceRoboto';

const FACES = [
  '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf',
  '@expo-google-fonts/roboto/500Medium/Roboto_500Medium.ttf',
] as const;

/** Roboto's cap height (1456 units of 2048): centres a line of text on a point. */
export const CAP_HEIGHT = 1456 / 2048;

/** What a character Roboto has no glyph for is drawn as: a Private Use Area code point (skia draws the first font's `.notdef`). */
const TOFU = '\uE000';

interface Loaded {
  readonly canvas: CanvasModule;
  readonly covered: ReadonlySet<number>;
}

let loaded: Loaded | undefined;

/**
 * Loads @napi-rs/canvas (a prebuilt skia shipped in the npm package) and registers the faces, on the
 * first screenshot rather than at start-up: most device tests never take one.
 */
export function renderer(): Loaded {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const canvas = require('@napi-rs/canvas') as CanvasModule;
  let covered: ReadonlySet<number> | undefined;
  for (const face of FACES) {
    const file = require.resolve(face);
    if (!canvas.GlobalFonts.registerFromPath(file, FAMILY))
      throw new Error(`The virtual device could not load its font ${file}: reinstall the dependencies (npm ci).`);
    if (!covered) {
      const font = create(readFileSync(file));
      if (font.isCollection)
        throw new Error(`${file} is a font collection, not the single Roboto face the screenshots need.`);
      covered = new Set(font.characterSet);
    }
  }
  loaded = { canvas, covered: covered ?? new Set() };
  return loaded;
}

/** A CSS font shorthand for the device's Roboto. */
export function font(size: number, weight: 400 | 500 = 400): string {
  return `${weight} ${Math.round(size * 10) / 10}px ${FAMILY}`;
}

const printableCache = new Map<string, string>();

/**
 * The text as it can be drawn: characters Roboto lacks become tofu, invisible format and combining
 * characters it lacks are dropped (they would only add boxes), tabs become spaces and other control
 * characters go. Newlines stay (they separate lines).
 */
export function printable(text: string): string {
  const hit = printableCache.get(text);
  if (hit !== undefined) return hit;
  const { covered } = renderer();
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += ' ';
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
    else if (covered.has(cp)) out += ch;
    else if (/[\p{Mn}\p{Me}\p{Cf}]/u.test(ch)) continue;
    else out += TOFU;
  }
  if (printableCache.size > 4096) printableCache.clear();
  printableCache.set(text, out);
  return out;
}
