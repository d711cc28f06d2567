/**
 * The conformance corpus: real request/response pairs between appium-uiautomator2-driver and the
 * UiAutomator2 server, as Appium logged them, one JSON file per public source.
 *
 * The corpus is other projects' data, so it lives beside the repository with the other real
 * captures (`../shared/uia2-exchanges/`, or ANDROID_MCP_UIA2_CORPUS), never in it. What the
 * repository keeps is the list of its sources (test/fixtures/uia2-exchange-sources.json: repository,
 * path, commit) and the code that builds it from them (build-corpus.ts) and replays it (replay.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
export const SOURCES_FILE = join(ROOT, 'test/fixtures/uia2-exchange-sources.json');

export function corpusDir(): string {
  return resolve(process.env.ANDROID_MCP_UIA2_CORPUS ?? join(ROOT, '../shared/uia2-exchanges'));
}

/** Whether the corpus is there to replay (a checkout without `../shared` has none). */
export function corpusAvailable(dir = corpusDir()): boolean {
  return existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.json'));
}

/** One source of the corpus, as the repository lists it. */
export interface ListedSource {
  readonly file: string;
  readonly repository: string;
  readonly path: string;
  readonly commit: string;
  readonly exchanges: number;
}

export function listedSources(): ListedSource[] {
  return JSON.parse(readFileSync(SOURCES_FILE, 'utf8')) as ListedSource[];
}

/** Where a log came from: a committed file (repository + path + commit) or an issue thread. */
export interface ExchangeSource {
  readonly repository: string;
  readonly path?: string;
  readonly commit?: string;
  readonly issue?: number;
  /** What was changed in the recorded text, if anything (only secrets are ever redacted). */
  readonly redactions: string;
}

/** Versions as the log states them at the exchange (absent when the log does not say). */
export interface ExchangeVersions {
  appium?: string;
  driver?: string;
  server?: string;
  apiLevel?: string;
}

export interface Exchange {
  readonly method: string;
  /** The server path with the session id replaced by `:sessionId` and without the old `/wd/hub` prefix. */
  readonly path: string;
  /** The request body as logged (null for "with no body"). */
  readonly requestBody: unknown;
  readonly status: number;
  /** The response body parsed, or null when the log cut it short (then only `responseText` is kept). */
  readonly responseBody: unknown;
  /** The response text as logged, kept only when Appium truncated it ("..."). */
  readonly responseText?: string;
  readonly truncated: boolean;
  /** 1-based line of the `Proxying` line in the source file. */
  readonly line: number;
  readonly versions: ExchangeVersions;
}

export interface CorpusFile {
  readonly source: ExchangeSource;
  readonly exchanges: readonly Exchange[];
}

export function loadCorpus(dir = corpusDir()): { file: string; corpus: CorpusFile }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, corpus: JSON.parse(readFileSync(join(dir, file), 'utf8')) as CorpusFile }));
}
