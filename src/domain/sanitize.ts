/**
 * The one sanitiser of text a client may see. Messages reach a model, so they never carry a host
 * path, a stack trace, credentials written into a URL, or text the user typed ("The envelope" in
 * docs/reference/contract.md). Relative paths (`artifacts/<id>`), URLs and the WebDriver
 * endpoints the harness talks about (`/status`) are kept: they say nothing about the host.
 *
 * Every message goes through every rule. A foreign message (Appium's, webdriverio's, a Selenium
 * Grid's) quoted inside one of the harness's own sentences goes through two more: its URLs are
 * hidden, since they name hosts the user never configured (a Grid's nodes, a farm's internals),
 * and it is cut to its first two lines, at most 240 characters, to fit the sentence.
 */

/** Where a message comes from: the harness's own words, or another program's quoted in them. */
export type MessageOrigin = 'harness' | 'foreign';

/** A stack trace: the first `    at …` line and everything after it. */
const STACK = /\n\s+at\s[\s\S]*$/;

// One pass, left to right, so that a URL is taken whole before its own slashes could look like
// a path. The alternatives, in order:
// 1. a URL with an authority (`scheme://…`) up to its query: kept, except `file://…`, which is a
//    host path. The query and fragment are scanned like prose (`?log=/home/alice/x` is a path);
const URL_WITH_AUTHORITY = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"`()<>?#]*/.source;
// 2. a Windows path (`C:\Users\…`);
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[^\s\\'"`()<>]+\\)*[^\s\\'"`()<>]*/.source;
// 3. a home-relative path (`~/…`);
const HOME_PATH = /(?<![\w.:/])~\/(?:[^\s/'"`()<>]+\/?)*/.source;
// 4. an absolute POSIX path: a slash not preceded by a word character, dot or slash (so `a/b`
//    survives). A colon may precede it (`error:/home/…`, `file:/tmp/…`, `C:/Users/…`).
const POSIX_PATH = /(?<![\w./~-])\/(?:[^\s/'"`()<>]+\/)*[^\s/'"`()<>]*/.source;
const SUSPECT = new RegExp(`(${URL_WITH_AUTHORITY})|${WINDOWS_PATH}|${HOME_PATH}|(${POSIX_PATH})`, 'g');

/** A whole URL of any scheme but `file:` (a host path, hidden as one), its query and fragment included. */
const FOREIGN_URL = /\b(?!file:)[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"`()<>]*/gi;

/** A URL's userinfo (`//user:key@`): a farm's credentials, never shown. */
const USERINFO = /\/\/[^/@]*@/;

/**
 * WebDriver and Appium routes, optionally under the legacy `/wd/hub` base: `/status`,
 * `/sessions`, `/appium/sessions`, `/session[/<id>/…]`. These are URL paths on the Appium server,
 * not files ("answered /status without an Appium build version"). Also the harness's own HTTP
 * routes a REST refusal points at (`/openapi.json`, `/mcp`, `/devices`).
 */
const KNOWN_ENDPOINT =
  /^(?:(?:\/wd\/hub)?(?:\/status|\/sessions|\/appium\/sessions|\/session(?:\/[\w-]+)*)?|\/openapi\.json|\/mcp|\/devices)$/;
/** Punctuation that ends a sentence rather than the path (`… at /status.`). */
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

const MAX_MESSAGE = 1000;
const MAX_FOREIGN = 240;
const FOREIGN_LINES = 2;

function keepsOrHides(url: string | undefined, posix: string | undefined): string {
  if (url !== undefined) return /^file:/i.test(url) ? '<path>' : url.replace(USERINFO, '//[redacted]@');
  if (posix !== undefined) {
    if (posix === '/') return posix;
    if (KNOWN_ENDPOINT.test(posix.replace(TRAILING_PUNCTUATION, ''))) return posix;
  }
  return '<path>';
}

/** The message with every rule applied (and the two more of a foreign message). */
export function sanitizeMessage(message: string, origin: MessageOrigin = 'harness'): string {
  let text = message.replace(STACK, '');
  if (origin === 'foreign') text = text.split('\n').slice(0, FOREIGN_LINES).join(' ').replace(FOREIGN_URL, '<url>');
  const cleaned = text.replace(SUSPECT, (_match: string, url: string | undefined, posix: string | undefined) =>
    keepsOrHides(url, posix),
  );
  if (origin === 'foreign') return cleaned.slice(0, MAX_FOREIGN).trim();
  return cleaned.length > MAX_MESSAGE ? `${cleaned.slice(0, MAX_MESSAGE)}…` : cleaned;
}

/**
 * The typed text cut out of a driver error's message and stack (raw and JSON-escaped forms): a
 * driver that quotes the value it could not set ("Cannot set the element to '…'") must not carry
 * it into a log or an answer.
 */
export function withoutText(error: unknown, text: string): unknown {
  if (text.length === 0) return error;
  const forms = [...new Set([text, JSON.stringify(text).slice(1, -1)])].filter((form) => form.length > 0);
  const scrub = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    let result = value;
    for (const form of forms) result = result.split(form).join('<typed text>');
    return result;
  };
  if (typeof error === 'string') return scrub(error);
  if (typeof error !== 'object' || error === null) return error;
  const record = error as { message?: unknown; stack?: unknown };
  try {
    record.message = scrub(record.message);
    record.stack = scrub(record.stack);
  } catch {
    // A frozen error: replace it by a plain one with the same name.
    const replaced = new Error(String(scrub(record.message)));
    replaced.name = String((error as { name?: unknown }).name ?? 'Error');
    return replaced;
  }
  return error;
}
