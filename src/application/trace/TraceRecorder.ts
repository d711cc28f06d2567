/**
 * What the model did, call by call, for a person to read later and to replay (docs/reference/contract.md,
 * "Traces"). runTool hands every call to a CallRecorder; the recorder turns it into one line of
 * the run's trace.jsonl through the TraceSink port (a file in infrastructure/trace/).
 *
 * - Typed text never enters a line: ui_type_text's `text` is written as "[typed text]" with its
 *   length, as the logs leave it out, and every value typed during the run is cut out of error
 *   messages (TypedTexts, the goal loop's own redaction).
 * - The summary the model had read before a call is not copied into each line: a line names the
 *   line whose answer carried it (`read_line`), so a summary is written once.
 * - A session id is a capability, not a fact worth keeping: each is written as `session-1`,
 *   `session-2`… in the order the trace first meets it, in arguments and answers alike.
 * - Positions are for the person: a tree's line also keeps each offered entry's bounds by ref
 *   (`bounds`), taken from the reading itself, while the answer the model got stays as it was.
 */
import type { Envelope } from '../../domain/envelope.js';
import type { Clock } from '../../domain/ports.js';
import { TypedTexts } from '../agent/redaction.js';
import type { OperationResult } from '../OperationRunner.js';

/** One run's trace as a place to append lines to (infrastructure/trace/FileTraceStore). */
export interface TraceSink {
  /** The folder's name (time-ordered), for reports and the task view. */
  readonly name: string;
  /** Appends one line; a line that cannot be written is dropped (a trace never fails a call). */
  append(line: Readonly<Record<string, unknown>>): void;
  /** Keeps the evidence file of `artifactId` with the trace (linked, not copied). */
  keepEvidence(artifactId: string): void;
}

/** Where runs open their traces; null when traces are off. */
export interface TraceStore {
  open(kind: TraceKind, name?: string | null): TraceSink | null;
}

/** What writes the run: one MCP server process (stdio or HTTP), a flow file, a REST task. */
export type TraceKind = 'stdio' | 'http' | 'flow' | 'task';

/** The one call runTool is running: ended with its result, once. */
export interface CallTrace {
  end(result: OperationResult): void;
}

export interface CallRecorder {
  begin(tool: string, args: Readonly<Record<string, unknown>>): CallTrace;
}

/** Traces off (or a caller with nothing to record into): every call passes untouched. */
export const NO_TRACE: CallRecorder = Object.freeze({ begin: () => Object.freeze({ end: () => undefined }) });

/** Argument names whose value is text sent to the device, as the goal loop's redaction names them. */
const TYPED_ARGUMENT = 'text';
const TYPED_TOOLS: ReadonlySet<string> = new Set(['ui_type_text']);
/** Tools whose answer is the screen summary the model reads (and acts on by ref or selector). */
const READ_TOOLS: ReadonlySet<string> = new Set(['ui_get_tree', 'ui_wait']);
/** An answer bigger than this is written without its data (a raw XML part): the trace stays readable. */
const MAX_DATA_CHARS = 256 * 1024;

export class TraceRecorder implements CallRecorder {
  private line = 0;
  private lastRead: number | null = null;
  private readonly typed = new TypedTexts();
  private readonly sessions = new Map<string, string>();

  constructor(
    private readonly sink: TraceSink,
    private readonly clock: Clock,
    /** The device a call that names none acts on (the configured one). */
    private readonly defaultDevice: string | null,
  ) {}

  get name(): string {
    return this.sink.name;
  }

  /** The first line: what the trace is about. */
  start(fields: Readonly<Record<string, unknown>>): void {
    this.line += 1;
    this.sink.append({ line: this.line, type: 'start', at: this.clock.now().toISOString(), ...fields });
  }

  begin(tool: string, args: Readonly<Record<string, unknown>>): CallTrace {
    const startedAt = this.clock.now();
    const started = this.clock.monotonicMs();
    const readLine = this.lastRead;
    const recorded = this.recordedArguments(tool, args);
    let ended = false;
    return {
      end: (result) => {
        if (ended) return;
        ended = true;
        this.write(tool, recorded, args, result, startedAt, Math.round(this.clock.monotonicMs() - started), readLine);
      },
    };
  }

  private recordedArguments(tool: string, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const recorded = this.withoutSessionId(args);
    if (!TYPED_TOOLS.has(tool) || typeof args[TYPED_ARGUMENT] !== 'string') return recorded;
    const text = args[TYPED_ARGUMENT];
    this.typed.note(args);
    return { ...recorded, [TYPED_ARGUMENT]: '[typed text]', typed_characters: [...text].length };
  }

  private withoutSessionId(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const id = record.session_id;
    if (typeof id !== 'string') return { ...record };
    let alias = this.sessions.get(id);
    if (alias === undefined) {
      alias = `session-${this.sessions.size + 1}`;
      this.sessions.set(id, alias);
    }
    return { ...record, session_id: alias };
  }

  private write(
    tool: string,
    args: Record<string, unknown>,
    received: Readonly<Record<string, unknown>>,
    result: OperationResult,
    startedAt: Date,
    durationMs: number,
    readLine: number | null,
  ): void {
    this.line += 1;
    const envelope = this.safeEnvelope(result.envelope);
    const evidence = envelope.evidence ? [envelope.evidence.artifact_id] : [];
    for (const id of evidence) this.sink.keepEvidence(id);
    const data = envelope.data as Record<string, unknown>;
    const device = stringOr(data.device) ?? stringOr(received.device) ?? this.defaultDevice;
    const bounds = result.trace?.bounds;
    const acted = result.trace?.acted;
    const element = result.trace?.element;
    this.sink.append({
      line: this.line,
      type: 'call',
      tool,
      arguments: args,
      started_at: startedAt.toISOString(),
      ended_at: new Date(startedAt.getTime() + durationMs).toISOString(),
      duration_ms: durationMs,
      device,
      ok: envelope.ok,
      error_code: envelope.error?.code ?? null,
      evidence,
      read_line: readLine,
      envelope,
      ...(bounds ? { bounds } : {}),
      ...(acted ? { acted_bounds: acted } : {}),
      ...(element ? { element } : {}),
    });
    // The next call was chosen after reading this answer: it is the summary the model had.
    if (envelope.ok && ((READ_TOOLS.has(tool) && Array.isArray(data.actions)) || hasActions(data.after)))
      this.lastRead = this.line;
  }

  private safeEnvelope(envelope: Envelope): Envelope {
    const error = envelope.error
      ? { ...envelope.error, message: this.typed.redact(envelope.error.message, 2000) }
      : null;
    const size = JSON.stringify(envelope.data).length;
    const data = size > MAX_DATA_CHARS ? { omitted_characters: size } : this.withoutSessionId(envelope.data);
    return { ...envelope, data, error };
  }
}

/** An acting tool's `after` summary, when it sends one: the screen the model reads next. */
function hasActions(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Array.isArray((value as { actions?: unknown }).actions);
}

function stringOr(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
