/**
 * Messages reach a model, so they must never carry a host path or a stack trace
 * (CONTRACT §2). Relative paths (`artifacts/<id>`), URLs and the WebDriver endpoints the
 * harness talks about (`/status`) are kept: they say nothing about the host.
 */
const STACK_LINE = /\n\s+at\s[\s\S]*$/;

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

/**
 * WebDriver and Appium routes, optionally under the legacy `/wd/hub` base: `/status`,
 * `/sessions`, `/appium/sessions`, `/session[/<id>/…]`. These are URL paths on the Appium server,
 * not files ("answered /status without an Appium build version"). Also the harness's own HTTP
 * routes a REST refusal points at (`/openapi.json`, `/mcp`, `/devices`).
 */
const KNOWN_ENDPOINT = /^(?:(?:\/wd\/hub)?(?:\/status|\/sessions|\/appium\/sessions|\/session(?:\/[\w-]+)*)?|\/openapi\.json|\/mcp|\/devices)$/;
/** Punctuation that ends a sentence rather than the path (`… at /status.`). */
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;
const MAX_MESSAGE = 1000;

function keepsOrHides(url: string | undefined, posix: string | undefined): string {
  if (url !== undefined) return /^file:/i.test(url) ? '<path>' : url;
  if (posix !== undefined) {
    if (posix === '/') return posix;
    if (KNOWN_ENDPOINT.test(posix.replace(TRAILING_PUNCTUATION, ''))) return posix;
  }
  return '<path>';
}

export function sanitizeMessage(message: string): string {
  const cleaned = message
    .replace(STACK_LINE, '')
    .replace(SUSPECT, (_match: string, url: string | undefined, posix: string | undefined) => keepsOrHides(url, posix));
  return cleaned.length > MAX_MESSAGE ? `${cleaned.slice(0, MAX_MESSAGE)}…` : cleaned;
}
