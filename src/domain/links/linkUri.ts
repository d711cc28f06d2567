/**
 * The link app_open_link opens: model text that must reach the device's shell, so it is held to
 * a closed grammar here and single-quoted by the adb adapter (docs/reference/contract.md, app_open_link).
 *
 * `adb shell a b c` joins its arguments with spaces and the device's shell parses the line
 * again. Inside single quotes that shell treats every character literally except `'` itself, so
 * a value free of `'`, NUL and line breaks, wrapped in single quotes, stays one word whatever it
 * holds. The grammar below is narrower still: only the URI characters a link needs in raw form
 * (RFC 3986's unreserved set, the delimiters of authority, path, query and fragment, and
 * percent-escapes), so the value is a URI before it is a shell word, and the characters that
 * mean something to a shell even in odd places (`' " \` $ ( ) ; ! * [ ] { } < > |`, white space)
 * never appear. `&`, `?`, `#`, `~` and `=` are the exceptions links cannot do without; the
 * quoting is what makes them inert.
 */
import { HarnessError } from '../errors.js';

/** A link that passed parseLinkUri; only these may reach adb. */
export type LinkUri = string & { readonly __brand: 'LinkUri' };

/** Long enough for any real deep link; Android's own intent data has no limit, the answer budget does. */
export const LINK_MAX_LENGTH = 2_000;

/** RFC 3986 scheme, lower case: Android's intent filters match schemes case-sensitively. */
const SCHEME = /^[a-z][a-z0-9+.-]{0,31}$/;

/** The characters allowed after the scheme's colon (a `%` must start a two-digit escape). */
const REST_CHAR = /[A-Za-z0-9\-._~:/?#@&=+,%]/;
const REST = /^(?:[A-Za-z0-9\-._~:/?#@&=+,]|%[0-9A-Fa-f]{2})+$/;

/**
 * Schemes that are not a link into an app: they read the device's files or providers, run script
 * in a browser, carry a whole document inline, or describe another intent a browser would start.
 */
const REFUSED_SCHEMES: Readonly<Record<string, string>> = Object.freeze({
  file: "a file: URI reads the device's files, not an app's link",
  content: "a content: URI reads an app's data provider, not a link",
  javascript: 'a javascript: URI runs script in a browser',
  vbscript: 'a vbscript: URI runs script',
  data: 'a data: URI carries a whole document inline',
  intent: 'an intent: URI describes another intent, which a browser would start as written',
});

const ACCEPTED =
  'A link is scheme:rest in plain ASCII, e.g. https://example.com/item?id=42 or myapp://orders/42: a lower-case scheme, ' +
  'then only letters, digits and - . _ ~ : / ? # @ & = + , with anything else percent-encoded ' +
  `(%20 for a space, %27 for ', %28 and %29 for parentheses), at most ${LINK_MAX_LENGTH} characters.`;

function refuse(why: string): never {
  throw new HarnessError('INVALID_ARGUMENT', `Invalid url: ${why}. ${ACCEPTED}`);
}

/** What a character is called in a refusal: printable ASCII as itself, anything else by its code point. */
function charName(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (c === ' ') return 'a space';
  if (code > 0x20 && code < 0x7f) return `'${c}'`;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Throws HarnessError('INVALID_ARGUMENT') naming what is wrong; never echoes more than the offending character. */
export function parseLinkUri(input: unknown): LinkUri {
  if (input === undefined || input === null) refuse('the "url" argument is missing (the link to open)');
  if (typeof input !== 'string') refuse(`got ${Array.isArray(input) ? 'an array' : `a ${typeof input}`}, not a string`);
  if (input.length === 0) refuse('it is empty');
  if (input.length > LINK_MAX_LENGTH) refuse(`it is ${input.length} characters long`);
  const colon = input.indexOf(':');
  const scheme = colon > 0 ? input.slice(0, colon) : '';
  if (!SCHEME.test(scheme)) {
    if (colon > 0 && SCHEME.test(scheme.toLowerCase()))
      refuse(`write the scheme in lower case ('${scheme.toLowerCase()}:'), as Android matches it exactly`);
    refuse('it does not start with a scheme (letters, then a colon, e.g. https: or myapp:)');
  }
  const refused = REFUSED_SCHEMES[scheme];
  if (refused !== undefined) refuse(`${refused}; app_open_link opens links into apps`);
  const rest = input.slice(colon + 1);
  if (rest.length === 0) refuse('nothing follows the scheme');
  let index = colon + 1;
  for (const c of rest) {
    if (!REST_CHAR.test(c)) refuse(`it contains ${charName(c)} at position ${index + 1}`);
    index += c.length;
  }
  if (!REST.test(rest)) refuse('a % must start a two-digit hexadecimal escape such as %20');
  return input as LinkUri;
}

/** The adapter's own check before the argv exists (a LinkUri is re-checked, never trusted by type alone). */
export function isLinkUri(value: string): value is LinkUri {
  try {
    parseLinkUri(value);
    return true;
  } catch {
    return false;
  }
}

/** The link as one word for the device's shell: single-quoted, which the grammar makes sound (no `'` inside). */
export function shellWordOfLink(uri: LinkUri): string {
  if (!isLinkUri(uri) || uri.includes("'"))
    throw new HarnessError('INTERNAL_ERROR', 'The link did not pass the link grammar; it is not given to adb.');
  return `'${uri}'`;
}

/** The scheme, for messages (never the whole link: it may carry a token). */
export function schemeOfLink(uri: LinkUri): string {
  return uri.slice(0, uri.indexOf(':'));
}
