/**
 * `npm run conformance`: replays every recorded exchange of the corpus (corpus.ts says where it lives) against
 * the virtual device's UiAutomator2 server and compares what it answers with what the real server
 * answered: the HTTP status, the error name (`value.error`) and the JSON shape of `value` (keys
 * and types, never values). Prints `N exchanges, M match`; exits 1 when an exchange neither
 * matches nor is listed in test/fixtures/uia2-not-reproducible.json (docs/internals/device-quirks.md says why).
 *
 * No adb and no Appium: the server is reached in-process through the device's `tcp:6790` streams,
 * which is the same HTTP server `adb forward` reaches. Two devices serve two screens: one with a
 * node for every selector the real server found, one with none (for the finds it did not find).
 * Recorded element ids are mapped to the ids the double gives: the find that produced an id is
 * replayed first, and its answer's ids (by position) stand for the recorded ones from then on.
 * Where the real server answered `stale element reference`, the screen is redrawn just before.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import type { ShellIo } from '../../packages/virtual-device/src/contracts.js';
import { corpusAvailable, corpusDir, loadCorpus, type CorpusFile, type Exchange } from './corpus.js';
import {
  isJsonwpAnswer,
  jsonwpElementShape,
  jsonwpSessionAnswer,
  normaliseExchange,
  sameSessionAnswer,
} from './jsonwp.js';
import { onPageSource, screenXml, wishFor, type NodeWish } from './screen.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';
const PKG = 'io.appium.conformance';
const INSTRUMENT =
  'am instrument -w -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';
export const NOT_REPRODUCIBLE_FILE = resolve(import.meta.dirname, '../../test/fixtures/uia2-not-reproducible.json');

export interface NotReproducible {
  readonly method?: string;
  /** A regular expression over the normalised path, element ids as recorded. */
  readonly path?: string;
  readonly status?: number;
  readonly file?: string;
  readonly line?: number;
  /** A regular expression over a find's selector. */
  readonly selector?: string;
  /** Only this kind of difference is excused (default: any). */
  readonly difference?: Difference['kind'];
  readonly reason: string;
}

export interface Difference {
  readonly kind: 'status' | 'error' | 'shape' | 'unmapped' | 'unreadable-selector';
  readonly detail: string;
}

export interface Outcome {
  readonly file: string;
  readonly line: number;
  readonly method: string;
  readonly path: string;
  readonly recordedStatus: number;
  readonly replayStatus: number | null;
  readonly differences: readonly Difference[];
  readonly excusedBy: NotReproducible | null;
}

export interface ConformanceReport {
  readonly total: number;
  readonly matched: number;
  readonly documented: number;
  readonly failed: readonly Outcome[];
  readonly outcomes: readonly Outcome[];
}

type Json = Record<string, unknown>;
interface Reply {
  status: number;
  body: { sessionId?: unknown; value?: unknown };
}

function call(device: VirtualDevice, method: string, path: string, body: unknown): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const socket = device.openTcp(6790);
    if (!socket) return reject(new Error('the UiAutomator2 server is not listening on tcp:6790'));
    const payload = body === null || body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        method,
        path,
        createConnection: () => socket as never,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Reply['body'];
          try {
            parsed = JSON.parse(text) as Reply['body'];
          } catch {
            parsed = { value: text };
          }
          resolvePromise({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface Served {
  readonly device: VirtualDevice;
  readonly stop: AbortController;
  sid: string;
}

async function serve(xml: string): Promise<Served | null>;
async function serve(xml: string, optional: false): Promise<Served>;
async function serve(xml: string, optional = true): Promise<Served | null> {
  // The replay compares answers' shapes, never their time: no start-up wait and no recorded costs.
  let device: VirtualDevice;
  try {
    device = VirtualDevice.withStaticScreen(xml, { instrumentationStartupMs: 5, timing: 'fast', package: PKG });
  } catch (error) {
    // A recorded page source the device cannot import is no screen to replay on: the synthetic one serves.
    if (optional) return null;
    throw error;
  }
  const served: Served = { device, stop: new AbortController(), sid: '' };
  await instrument(served);
  return served;
}

/** `am instrument`, as the driver starts the server, then one session. */
async function instrument(served: Served): Promise<void> {
  const io: ShellIo = {
    stdout: () => undefined,
    stderr: () => undefined,
    aborted: served.stop.signal,
    onStdin: () => undefined,
  };
  void served.device.runShell(INSTRUMENT, io, 'shell_v2');
  for (let i = 0; i < 400 && !served.device.instrumentation.isServing(); i++)
    await new Promise((r) => setTimeout(r, 5));
  await newSession(served);
}

/** The server ends its instrumentation once a session is deleted: wait for that, then start it again. */
async function restart(served: Served): Promise<void> {
  for (let i = 0; i < 400 && served.device.instrumentation.isRunning(); i++) await new Promise((r) => setTimeout(r, 5));
  await instrument(served);
}

async function newSession(served: Served): Promise<void> {
  const created = await call(served.device, 'POST', '/session', {
    capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} },
  });
  served.sid = String(created.body.sessionId);
}

/** Keys and types, never values; an array's shape is its first item's. */
export function shapeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${shapeOf(value[0])}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Json).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${k}:${shapeOf(v)}`).join(',')}}`;
  }
  return typeof value;
}

function sameShape(recorded: unknown, replayed: unknown, jsonwp: boolean): boolean {
  // An empty list and a list of elements are the same shape: how many match is the screen's business.
  const a = shapeOf(recorded);
  const b = jsonwp ? jsonwpElementShape(shapeOf(replayed)) : shapeOf(replayed);
  if (a === b) return true;
  return (a === '[]' && b.startsWith('[')) || (b === '[]' && a.startsWith('['));
}

function recordedError(e: Exchange): string | undefined {
  const body = e.responseBody as { value?: { error?: unknown } } | null;
  if (body && typeof body.value?.error === 'string') return body.value.error;
  return e.responseText ? /"error":"([^"]+)"/.exec(e.responseText)?.[1] : undefined;
}

function elementIdsIn(value: unknown): string[] {
  const one = (v: unknown): string | undefined => {
    if (!v || typeof v !== 'object') return undefined;
    const o = v as Json;
    const id = o[W3C] ?? o.ELEMENT;
    return typeof id === 'string' ? id : undefined;
  };
  if (Array.isArray(value)) return value.map(one).filter((x): x is string => x !== undefined);
  const id = one(value);
  return id ? [id] : [];
}

const isFind = (e: Exchange): boolean => e.method === 'POST' && /\/elements?$/.test(e.path);
const findSelector = (e: Exchange): { strategy: string; selector: string } | null => {
  const b = e.requestBody as Json | null;
  const strategy = b?.strategy ?? b?.using;
  const selector = b?.selector ?? b?.value;
  return typeof strategy === 'string' && typeof selector === 'string' ? { strategy, selector } : null;
};
const foundSomething = (e: Exchange): boolean =>
  e.status === 200 && elementIdsIn((e.responseBody as { value?: unknown } | null)?.value).length > 0;

/** The element ids a path or body mentions, as recorded. */
function pathElementId(path: string): string | undefined {
  return /\/element\/([^/]+)/.exec(path)?.[1];
}

function replaceIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceIds(v, ids));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, replaceIds(v, ids)]));
  return value;
}

function excuse(
  list: readonly NotReproducible[],
  file: string,
  e: Exchange,
  differences: readonly Difference[],
): NotReproducible | null {
  return (
    list.find(
      (n) =>
        (n.method === undefined || n.method === e.method) &&
        (n.path === undefined || new RegExp(n.path).test(e.path)) &&
        (n.status === undefined || n.status === e.status) &&
        (n.file === undefined || n.file === file) &&
        (n.line === undefined || n.line === e.line) &&
        (n.selector === undefined ||
          new RegExp(n.selector).test(
            String((e.requestBody as Json | null)?.selector ?? (e.requestBody as Json | null)?.value ?? ''),
          )) &&
        (n.difference === undefined || differences.every((d) => d.kind === n.difference)),
    ) ?? null
  );
}

/** The last page source the real server gave in a file, whole (a source Appium cut short is no screen). */
function recordedPageSource(exchanges: readonly Exchange[]): string | null {
  const sources = exchanges.filter((e) => e.method === 'GET' && /\/source$/.test(e.path) && e.status === 200);
  const value = sources
    .map((e) => (e.truncated ? undefined : (e.responseBody as { value?: unknown } | null)?.value))
    .find((v): v is string => typeof v === 'string' && v.includes('<hierarchy'));
  return value ?? null;
}

export interface ConformanceInput {
  readonly corpus?: readonly { file: string; corpus: CorpusFile }[];
  readonly notReproducible?: readonly NotReproducible[];
}

export async function runConformance(input: ConformanceInput = {}): Promise<ConformanceReport> {
  const corpus = (input.corpus ?? loadCorpus()).map(({ file, corpus: c }) => ({
    file,
    corpus: { ...c, exchanges: c.exchanges.map(normaliseExchange) },
  }));
  const notReproducible =
    input.notReproducible ?? (JSON.parse(readFileSync(NOT_REPRODUCIBLE_FILE, 'utf8')) as NotReproducible[]);

  // The screen: one wish per selector the real server found; ids later typed into become EditTexts.
  const typedInto = new Set<string>();
  for (const { corpus: c } of corpus)
    for (const e of c.exchanges) if (/\/(value|clear)$/.test(e.path)) typedInto.add(pathElementId(e.path) ?? '');
  const wishes = new Map<string, NodeWish>();
  for (const { corpus: c } of corpus) {
    for (const e of c.exchanges) {
      const sel = isFind(e) && foundSomething(e) ? findSelector(e) : null;
      if (!sel) continue;
      const wish = wishFor(sel.strategy, sel.selector, PKG);
      if (!wish) continue;
      const ids = elementIdsIn((e.responseBody as { value?: unknown }).value);
      if (ids.some((id) => typedInto.has(id))) {
        if (wish.cls === 'android.widget.TextView') wish.cls = 'android.widget.EditText';
        if (wish.xpath !== undefined) wish.editable = true;
      }
      wishes.set(JSON.stringify(wish), wish);
    }
  }
  const full = await serve(screenXml([...wishes.values()], PKG), false);
  const empty = await serve(screenXml([], PKG), false);
  const served = [full, empty];
  const outcomes: Outcome[] = [];
  try {
    for (const { file, corpus: c } of corpus) {
      const ids = new Map<string, string>();
      // The real screen, where the log kept one: the first page source (the first it gave,
      // order of appearance) with the wished nodes added, so structure the synthetic screen cannot
      // rebuild (absolute paths, `@index`) is checked against what the server saw.
      const firstSource = recordedPageSource(c.exchanges);
      const onSource = firstSource ? onPageSource(firstSource, [...wishes.values()], PKG) : null;
      const fileFull = (onSource ? await serve(onSource) : null) ?? full;
      if (fileFull !== full) served.push(fileFull);
      for (const e of c.exchanges) {
        const differences: Difference[] = [];
        let replayStatus: number | null = null;
        const target =
          isFind(e) && !foundSomething(e)
            ? empty
            : e.method === 'POST' && e.path === '/session'
              ? empty
              : e.method === 'DELETE' && e.path === '/session/:sessionId'
                ? empty
                : fileFull;
        const sel = isFind(e) ? findSelector(e) : null;
        const recordedId = pathElementId(e.path);
        const contextId = (e.requestBody as Json | null)?.context;
        if (isFind(e) && foundSomething(e) && sel && !wishFor(sel.strategy, sel.selector, PKG)) {
          differences.push({ kind: 'unreadable-selector', detail: `${sel.strategy}: ${sel.selector}` });
        } else if (
          (recordedId && !ids.has(recordedId)) ||
          (typeof contextId === 'string' && contextId !== '' && !ids.has(contextId))
        ) {
          differences.push({
            kind: 'unmapped',
            detail: `element ${recordedId ?? String(contextId)} was produced by no replayed find`,
          });
        } else {
          // A recorded 404 on DELETE /session was for a session the server no longer had.
          const sid =
            e.method === 'DELETE' && e.path === '/session/:sessionId' && e.status === 404 ? randomUUID() : target.sid;
          const path = e.path
            .replace(':sessionId', sid)
            .replace(/\/element\/([^/]+)/, (_m, id: string) => `/element/${ids.get(id) ?? id}`);
          // The real server said the element was gone from the screen (its locator matched nothing
          // any more): the replay redraws the screen first, which the double's cache sees as gone.
          if (recordedError(e) === 'stale element reference') target.device.setScreen('static');
          const reply = await call(target.device, e.method, path, replaceIds(e.requestBody, ids));
          replayStatus = reply.status;
          if (e.method === 'POST' && e.path === '/session' && reply.status === 200)
            target.sid = String(reply.body.sessionId);
          if (e.method === 'DELETE' && e.path === '/session/:sessionId' && reply.status === 200) await restart(target);
          const session = jsonwpSessionAnswer(e);
          if (session !== null) {
            // "Created Session" / "Session deleted": what the answer says is compared, not its type (jsonwp.ts).
            if (!sameSessionAnswer(session, reply))
              differences.push({
                kind: 'shape',
                detail: `recorded a JSONWP "${session}" answer, replayed ${reply.status} ${shapeOf(reply.body)}`,
              });
          } else if (reply.status !== e.status)
            differences.push({ kind: 'status', detail: `recorded ${e.status}, replayed ${reply.status}` });
          const replayError = (reply.body.value as { error?: unknown } | null)?.error;
          const wantError = recordedError(e);
          if (wantError !== undefined || (typeof replayError === 'string' && e.status !== 200)) {
            if (wantError !== replayError)
              differences.push({
                kind: 'error',
                detail: `recorded ${String(wantError)}, replayed ${String(replayError)}`,
              });
          }
          if (
            session === null &&
            !e.truncated &&
            !sameShape((e.responseBody as { value?: unknown }).value, reply.body.value, isJsonwpAnswer(e.responseBody))
          ) {
            differences.push({
              kind: 'shape',
              detail: `recorded ${shapeOf((e.responseBody as { value?: unknown }).value).slice(0, 300)}, replayed ${shapeOf(reply.body.value).slice(0, 300)}`,
            });
          }
          if (isFind(e) && !e.truncated) {
            const recordedIds = elementIdsIn((e.responseBody as { value?: unknown }).value);
            const replayIds = elementIdsIn(reply.body.value);
            recordedIds.forEach((rid, i) => {
              const mapped = replayIds[i] ?? replayIds[0];
              if (mapped) ids.set(rid, mapped);
            });
          }
        }
        outcomes.push({
          file,
          line: e.line,
          method: e.method,
          path: e.path,
          recordedStatus: e.status,
          replayStatus,
          differences,
          excusedBy: differences.length ? excuse(notReproducible, file, e, differences) : null,
        });
      }
    }
  } finally {
    for (const s of served) s.stop.abort();
  }
  const matched = outcomes.filter((o) => o.differences.length === 0).length;
  const documented = outcomes.filter((o) => o.differences.length > 0 && o.excusedBy).length;
  return {
    total: outcomes.length,
    matched,
    documented,
    failed: outcomes.filter((o) => o.differences.length > 0 && !o.excusedBy),
    outcomes,
  };
}

async function main(): Promise<void> {
  if (!corpusAvailable()) {
    process.stderr.write(
      `conformance: no corpus at ${corpusDir()}. Build it from the listed public logs (scripts/conformance/build-corpus.ts) or point ANDROID_MCP_UIA2_CORPUS at it.\n`,
    );
    process.exitCode = 2;
    return;
  }
  const report = await runConformance();
  const verbose = process.argv.includes('--verbose');
  for (const o of report.failed)
    process.stderr.write(
      `differs: ${o.file}:${o.line} ${o.method} ${o.path}: ${o.differences.map((d) => `${d.kind} (${d.detail})`).join('; ')}\n`,
    );
  if (verbose)
    for (const o of report.outcomes.filter((x) => x.excusedBy))
      process.stderr.write(`not reproducible: ${o.file}:${o.line} ${o.method} ${o.path}: ${o.excusedBy?.reason}\n`);
  process.stdout.write(
    `${report.total} exchanges, ${report.matched} match, ${report.documented} documented as not reproducible, ${report.failed.length} differ\n`,
  ); // stdout-ok: the runner's verdict line
  process.exitCode = report.failed.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
