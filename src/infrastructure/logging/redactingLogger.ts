import type { Logger } from '../../domain/ports.js';
import type { Secret } from '../../domain/secret.js';

const HIDDEN = '[redacted]';

/**
 * Remote mode's credentials never reach stderr: every message and field (deeply)
 * loses the configured secret values (the key, the user:key pair, the Authorization header and its
 * token, capability values such as accessKey), a URL's userinfo, and every query value, whatever
 * logged them (a driver error that quotes the request, a library's own message).
 */
export function redactingLogger(inner: Logger, secrets: readonly Secret[]): Logger {
  const scrub = redactor(secrets);
  const fields = (value: Record<string, unknown> | undefined): Record<string, unknown> | undefined =>
    value === undefined ? undefined : (scrubValue(value, scrub, 0) as Record<string, unknown>);
  return {
    debug: (message, f) => inner.debug(scrub(message), fields(f)),
    info: (message, f) => inner.info(scrub(message), fields(f)),
    warn: (message, f) => inner.warn(scrub(message), fields(f)),
    error: (message, f) => inner.error(scrub(message), fields(f)),
  };
}

/** The text with secrets, URL userinfo and query values replaced. Longest secrets first: a pair before its key. */
export function redactor(secrets: readonly Secret[]): (text: string) => string {
  const values = [...new Set(secrets.map((secret) => secret.reveal()).filter((value) => value.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  return (text: string): string => {
    let result = text;
    for (const value of values) {
      if (result.includes(value)) result = result.split(value).join(HIDDEN);
      const encoded = encodeURIComponent(value);
      if (encoded !== value && result.includes(encoded)) result = result.split(encoded).join(HIDDEN);
    }
    return result
      .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@"'<>]*@/gi, `$1${HIDDEN}@`)
      .replace(
        /(\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>?#]*\?)([^\s"'<>#]*)/gi,
        (_match, head: string, query: string) => `${head}${query.replace(/=([^&]*)/g, `=${HIDDEN}`)}`,
      );
  };
}

function scrubValue(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return scrub(value.stack ?? value.message);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    out[key] = scrubValue(item, scrub, depth + 1);
  return out;
}
