/**
 * Reads a trace folder back (docs/guide/traces.md) for the viewer and the exporters: the lines of
 * `trace.jsonl` checked at the boundary, and for each call the summary the model had read and the
 * screen it acted on. A last line cut by a crash is skipped, never a reason to refuse the rest.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { selectorOfEntry as offeredSelector, type EntrySelector } from '../domain/tree/screen.js';
import { TRACE_EVIDENCE_FOLDER, TRACE_FILE } from '../infrastructure/trace/FileTraceStore.js';

export class TraceReadError extends Error {}

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type Box = z.infer<typeof boxSchema>;

const envelopeSchema = z
  .object({
    ok: z.boolean(),
    tool: z.string().optional(),
    data: z.record(z.string(), z.unknown()).default({}),
    evidence: z.object({ artifact_id: z.string() }).loose().nullable().default(null),
    error: z.object({ code: z.string(), message: z.string() }).nullable().default(null),
  })
  .loose();

const callSchema = z
  .object({
    line: z.number().int(),
    type: z.literal('call'),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()).default({}),
    started_at: z.string(),
    duration_ms: z.number(),
    device: z.string().nullable().default(null),
    ok: z.boolean(),
    error_code: z.string().nullable().default(null),
    evidence: z.array(z.string()).default([]),
    read_line: z.number().int().nullable().default(null),
    envelope: envelopeSchema,
    bounds: z.record(z.string(), boxSchema).optional(),
    acted_bounds: boxSchema.optional(),
  })
  .loose();

export type TraceCall = z.infer<typeof callSchema>;

/** An entry of a summary as the model read it: its ref, selector keys and facts. */
export type SummaryEntry = Readonly<Record<string, unknown>> & { readonly ref?: string };

export interface ScreenRead {
  /** The line that carried it. */
  readonly line: number;
  readonly summary: Readonly<Record<string, unknown>>;
  readonly actions: readonly SummaryEntry[];
  /** Each entry's bounds by ref, when the trace kept them. */
  readonly bounds: Readonly<Record<string, Box>>;
}

export interface Trace {
  readonly dir: string;
  readonly name: string;
  readonly start: Readonly<Record<string, unknown>> | null;
  readonly calls: readonly TraceCall[];
  /** The summary carried by a line, by line number. */
  readRecord(line: number | null): ScreenRead | null;
  /** The PNG bytes of an artifact id: the trace's own link, else the evidence directory's file; null when gone. */
  evidence(artifactId: string): Buffer | null;
  /** Lines that could not be read (a cut last line, a line of an unknown shape). */
  readonly skipped: number;
}

/** The selector an entry offers, as the summary spells it, or null: an entry with only a ref. */
export function selectorOfEntry(entry: SummaryEntry): Record<string, unknown> | null {
  const selector = offeredSelector(entry as EntrySelector);
  return selector ? { ...selector } : null;
}

export function readTrace(dir: string): Trace {
  const file = path.join(dir, TRACE_FILE);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new TraceReadError(
      `${dir} is not a trace folder: it has no ${TRACE_FILE}. Traces are under the artifacts directory's traces/ folder (docs/guide/traces.md).`,
    );
  }
  const lines = readFileSync(file, 'utf8').split('\n');
  let start: Record<string, unknown> | null = null;
  const calls: TraceCall[] = [];
  let skipped = 0;
  for (const text of lines) {
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      skipped += 1;
      continue;
    }
    const type = (json as { type?: unknown } | null)?.type;
    if (type === 'start' && start === null) {
      start = json as Record<string, unknown>;
      continue;
    }
    if (type !== 'call') continue;
    const parsed = callSchema.safeParse(json);
    if (parsed.success) calls.push(parsed.data);
    else skipped += 1;
  }
  const byLine = new Map(calls.map((call) => [call.line, call]));
  const artifactsDir = path.resolve(dir, '..', '..');
  return {
    dir,
    name: path.basename(path.resolve(dir)),
    start,
    calls,
    skipped,
    readRecord: (line) => {
      const call = line === null ? undefined : byLine.get(line);
      if (!call) return null;
      const data = call.envelope.data;
      const summary = Array.isArray(data.actions)
        ? data
        : isRecord(data.after) && Array.isArray(data.after.actions)
          ? data.after
          : null;
      if (!summary) return null;
      return {
        line: call.line,
        summary,
        actions: (summary.actions as unknown[]).filter(isRecord),
        bounds: call.bounds ?? {},
      };
    },
    evidence: (id) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\.png$/.test(id)) return null;
      for (const candidate of [path.join(dir, TRACE_EVIDENCE_FOLDER, id), path.join(artifactsDir, id)]) {
        try {
          return readFileSync(candidate);
        } catch {
          // Not there: the next place, or gone.
        }
      }
      return null;
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entry of `read` a call's selector or ref named, or null. */
export function entryNamed(read: ScreenRead | null, selector: unknown): SummaryEntry | null {
  if (!read || !isRecord(selector)) return null;
  if (typeof selector.ref === 'string') return read.actions.find((entry) => entry.ref === selector.ref) ?? null;
  const wanted = canonical(selector);
  return (
    read.actions.find((entry) => {
      const offered = selectorOfEntry(entry);
      return offered !== null && canonical(offered) === wanted;
    }) ?? null
  );
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
