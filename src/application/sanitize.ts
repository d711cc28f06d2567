/**
 * Messages reach a model, so they must never carry a host path or a stack trace
 * (CONTRACT §2). Relative paths (`artifacts/<id>`) and URLs are kept.
 */
const STACK_LINE = /\n\s+at\s[\s\S]*$/;
// An absolute POSIX path: a slash not preceded by a word character, dot or slash (so `a/b` survives).
// A colon may precede it (`error:/home/…`, `file:/tmp/…`, `C:/Users/…`): a URL's `://` still
// survives, since its first slash is a match of `/` alone (kept) and its second follows a slash.
const POSIX_PATH = /(?<![\w./~-])\/(?:[^\s/'"`()<>]+\/)*[^\s/'"`()<>]*/g;
const WINDOWS_PATH = /\b[A-Za-z]:\\(?:[^\s\\'"`()<>]+\\)*[^\s\\'"`()<>]*/g;
const HOME_PATH = /(?<![\w.:/])~\/(?:[^\s/'"`()<>]+\/?)*/g;
const FILE_URL = /file:\/\/\S+/g;
const MAX_MESSAGE = 1000;

export function sanitizeMessage(message: string): string {
  const cleaned = message
    .replace(STACK_LINE, '')
    .replace(FILE_URL, '<path>')
    .replace(WINDOWS_PATH, '<path>')
    .replace(HOME_PATH, '<path>')
    .replace(POSIX_PATH, (match) => (match === '/' ? match : '<path>'));
  return cleaned.length > MAX_MESSAGE ? `${cleaned.slice(0, MAX_MESSAGE)}…` : cleaned;
}
