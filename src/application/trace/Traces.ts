/**
 * The traces of one server process: the session's own (every tools/call over stdio or HTTP and
 * every REST mirror call, opened at its first call so that a process that serves nothing leaves
 * no folder), and one per task, opened when the task is accepted.
 */
import type { Clock } from '../../domain/ports.js';
import { NO_TRACE, TraceRecorder, type CallRecorder, type TraceKind, type TraceStore } from './TraceRecorder.js';

export interface TracesOptions {
  /** null: traces are off (ANDROID_MCP_TRACE=off). */
  readonly store: TraceStore | null;
  readonly clock: Clock;
  /** The device a call that names none is on (the configured serial), as a line's `device`. */
  readonly defaultDevice: string | null;
  /** The session trace's folder name when the caller chose it (the flow runner); else one is made. */
  readonly sessionName: string | null;
  /** Written on each trace's first line. */
  readonly serverVersion: string;
}

export class Traces {
  private sessionKind: 'stdio' | 'http' = 'stdio';
  private sessionRecorder: TraceRecorder | null | undefined;
  /** Every call of the session goes here; the trace opens at the first one. */
  readonly session: CallRecorder = {
    begin: (tool, args) => (this.sessionTrace() ?? NO_TRACE).begin(tool, args),
  };

  constructor(private readonly options: TracesOptions) {}

  get enabled(): boolean {
    return this.options.store !== null;
  }

  /** Set before the first call: the session's calls arrive over HTTP (`serve --http`). */
  servedOver(kind: 'stdio' | 'http'): void {
    this.sessionKind = kind;
  }

  /** The session trace's folder name once it is open (null before the first call, or when off). */
  get sessionName(): string | null {
    return this.sessionRecorder?.name ?? null;
  }

  /** A new trace (a task's); null when traces are off or the folder could not be made. */
  open(kind: TraceKind, name: string | null = null): TraceRecorder | null {
    const sink = this.options.store?.open(kind, name) ?? null;
    if (!sink) return null;
    const recorder = new TraceRecorder(sink, this.options.clock, this.options.defaultDevice);
    recorder.start({ kind, server_version: this.options.serverVersion, device: this.options.defaultDevice });
    return recorder;
  }

  private sessionTrace(): TraceRecorder | null {
    if (this.sessionRecorder === undefined) {
      const kind: TraceKind =
        this.options.sessionName !== null && this.sessionKind === 'stdio' ? 'flow' : this.sessionKind;
      this.sessionRecorder = this.open(kind, this.options.sessionName);
    }
    return this.sessionRecorder;
  }
}
