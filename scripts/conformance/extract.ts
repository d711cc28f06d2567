/**
 * Pairs each `Proxying [M /x] to [M http://127.0.0.1:82xx/…] with body: …` line of an Appium
 * server log with the `Got response with status N: …` line that answered it, for the proxies to
 * the UiAutomator2 server only (not Chromedriver, not XCUITest's WDA).
 *
 *   npx tsx scripts/conformance/extract.ts <log file> --repository owner/name --path p --commit c \
 *     [--issue n] [--redactions "…"] > <corpus dir>/<name>.json
 *
 * Nothing is invented or rewritten: bodies are kept as logged; a body Appium cut short ("...")
 * is kept as text and marked truncated. Only the session id in the path is normalised.
 */
import { readFileSync } from 'node:fs';
import type { CorpusFile, Exchange, ExchangeSource, ExchangeVersions } from './corpus.js';

// eslint-disable-next-line no-control-regex -- Appium's log colours are ESC sequences; matching ESC is the point
const ANSI = /\x1b\[[0-9;-]*m/g;
const PROXYING =
  /Proxying \[(GET|POST|DELETE|PUT) ([^\]]*)\] to \[(GET|POST|DELETE|PUT) (https?:\/\/[^\]\s]+)\] with (no body|body: (.*))$/;
const GOT = /Got response with status (\d{3}): (.*)$/;
const TIMESTAMP = /^(?:\d{4}-\d\d-\d\d[ T][\d:.,]+Z?\s*(?:-\s*)?)?(?:\[?(?:debug|info|warn|error)\]?:?\s*)?/;

/** The logger's prefix (`[WD Proxy]`, `[AndroidUiautomator2Driver@19e4 (d71c110a)]`): requests and answers pair within it. */
function prefixOf(line: string, at: number): string {
  return line.slice(0, at).replace(TIMESTAMP, '').trim();
}

function parseBody(text: string): { body: unknown; truncated: boolean } {
  const trimmed = text.trim();
  try {
    return { body: JSON.parse(trimmed) as unknown, truncated: false };
  } catch {
    return { body: null, truncated: true };
  }
}

/** `/wd/hub/session/<id>/element` → `/session/:sessionId/element`. */
export function normalisePath(url: string): string {
  const path = new URL(url).pathname.replace(/^\/wd\/hub(?=\/|$)/, '') || '/';
  return path.replace(/^\/session\/[^/]+/, '/session/:sessionId');
}

function portOf(url: string): number {
  const u = new URL(url);
  return Number(u.port || (u.protocol === 'https:' ? 443 : 80));
}

interface Pending {
  readonly method: string;
  readonly url: string;
  readonly requestBody: unknown;
  readonly requestTruncated: boolean;
  readonly line: number;
  readonly versions: ExchangeVersions;
}

export function extractExchanges(log: string): Exchange[] {
  const versions: ExchangeVersions = {};
  const uia2Ports = new Set<number>();
  const pending = new Map<string, { queue: Pending[]; ambiguous: boolean }>();
  const out: Exchange[] = [];
  // Appium Desktop's saved logs sometimes glue entries onto one line (`…with no body[info] [WD
  // Proxy] socket hang up`): each `[debug] [` / `[info] [` starts an entry of its own.
  const entries = log.split(/\r?\n/).flatMap((raw, index) =>
    raw
      .replace(ANSI, '')
      .split(/(?=\[(?:debug|info|warn|error)\] \[)/)
      .map((line) => ({ line, index })),
  );
  entries.forEach(({ line, index }) => {
    const welcome = /Welcome to Appium v(\d[\w.-]*)/.exec(line);
    if (welcome?.[1]) {
      versions.appium = welcome[1];
      delete versions.driver;
      delete versions.server;
      delete versions.apiLevel;
    }
    const driver = /AndroidUiautomator2Driver \(v(\d[\w.-]*)\)/.exec(line) ?? /\buiautomator2@(\d[\w.-]*)/.exec(line);
    if (driver?.[1]) versions.driver = driver[1];
    const api = /Device API level: (\d+)/.exec(line) ?? /"deviceApiLevel":(\d+)/.exec(line);
    if (api?.[1]) versions.apiLevel = api[1];
    const serverVersion =
      /UiAutomator2 Server is ready[^]*?"build":\{"version":"([\d.]+)"/.exec(line) ??
      /"build":\{"version":"([\d.]+)"[^]*UiAutomator2 Server is ready/.exec(line);
    if (serverVersion?.[1]) versions.server = serverVersion[1];
    const installed =
      /'io\.appium\.uiautomator2\.server' .*?\('(\d+\.\d+\.\d+)'/.exec(line) ??
      /io\.appium\.uiautomator2\.server.*?version[^\d]*(\d+\.\d+\.\d+)/i.exec(line);
    if (installed?.[1] && versions.server === undefined) versions.server = installed[1];
    const forward =
      /UiAutomator2 Server port 6790 to (?:local port )?(\d+)/.exec(line) ??
      /forward tcp\\?:(\d+) tcp\\?:6790/.exec(line) ??
      /Forwarding system: (\d+) to device: 6790/.exec(line);
    if (forward?.[1]) uia2Ports.add(Number(forward[1]));

    const proxy = PROXYING.exec(line);
    if (proxy) {
      const [, method, , , url, noBody, bodyText] = proxy;
      const prefix = prefixOf(line, proxy.index);
      const isUia2 = uia2Ports.has(portOf(url!)) || /Uiautomator2Driver|\[UiAutomator2\]/i.test(prefix);
      if (!isUia2) {
        pending.delete(prefix);
        return;
      }
      const parsed = noBody === 'no body' ? { body: null, truncated: false } : parseBody(bodyText ?? '');
      const state = pending.get(prefix) ?? { queue: [], ambiguous: false };
      // A /status poll the server never answered (socket hang up) leaves nothing to pair.
      state.queue = state.queue.filter((p) => normalisePath(p.url) !== '/status');
      state.queue.push({
        method: method!,
        url: url!,
        requestBody: parsed.body,
        requestTruncated: parsed.truncated,
        line: index + 1,
        versions: { ...versions },
      });
      // A second request before the first was answered (the driver sends some at once): which
      // answer belongs to which cannot be told from the log, so none of that burst is paired.
      if (state.queue.length > 1) state.ambiguous = true;
      pending.set(prefix, state);
      return;
    }
    const got = GOT.exec(line);
    if (got) {
      const prefix = prefixOf(line, got.index);
      const state = pending.get(prefix);
      const request = state?.queue.shift();
      if (!state || !request) return;
      const ambiguous = state.ambiguous;
      if (state.queue.length === 0) state.ambiguous = false;
      // A request body Appium cut short cannot be replayed: the pair is left out.
      if (ambiguous || request.requestTruncated) return;
      const text = got[2] ?? '';
      const parsed = parseBody(text);
      const serverFromStatus = /"build":\{"version":"([\d.]+)"/.exec(text);
      if (serverFromStatus?.[1] && normalisePath(request.url) === '/status') versions.server = serverFromStatus[1];
      out.push({
        method: request.method,
        path: normalisePath(request.url),
        requestBody: request.requestBody,
        status: Number(got[1]),
        responseBody: parsed.body,
        ...(parsed.truncated ? { responseText: text } : {}),
        truncated: parsed.truncated,
        line: request.line,
        versions: request.versions,
      });
    }
  });
  return out;
}

function main(argv: readonly string[]): void {
  const [file, ...rest] = argv;
  const flag = (name: string): string | undefined => {
    const at = rest.indexOf(`--${name}`);
    return at >= 0 ? rest[at + 1] : undefined;
  };
  const repository = flag('repository');
  if (!file || !repository) {
    process.stderr.write(
      'usage: extract.ts <log file> --repository owner/name [--path p --commit c | --issue n] [--redactions text]\n',
    );
    process.exit(2);
  }
  const issue = flag('issue');
  const source: ExchangeSource = {
    repository,
    ...(flag('path') ? { path: flag('path') } : {}),
    ...(flag('commit') ? { commit: flag('commit') } : {}),
    ...(issue ? { issue: Number(issue) } : {}),
    redactions: flag('redactions') ?? 'none',
  };
  const corpus: CorpusFile = { source, exchanges: extractExchanges(readFileSync(file, 'utf8')) };
  process.stdout.write(`${JSON.stringify(corpus, null, 1)}\n`); // stdout-ok: the corpus file is this CLI's output
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) main(process.argv.slice(2));
