/**
 * What the model had read before each call, as the trace viewer shows it (docs/reference/contract.md,
 * "Traces"): every answer that carried a read counts — a ui_get_tree (whole, a part, a diff), a
 * ui_wait, an acting tool's `after` whether whole or a diff (`diff_of`) — and a ref is found in
 * the read that holds it: a diff's own entries (added, changed), else the earlier read it patches,
 * and so on back. Numbers are steps (a call's place in the trace, from 1), never trace lines.
 */
import type { Box, SummaryEntry, TraceCall } from './readTrace.js';

/** One read a call's answer carried. */
export interface ReadAt {
  /** The call's index in the trace (its step is index + 1). */
  readonly index: number;
  /** The read id ('' when the answer gave none). */
  readonly read: string;
  /** The read this one patches (a diff), else null. */
  readonly diffOf: string | null;
  /** The entries the answer itself listed: a whole read's actions, a diff's added and changed ones. */
  readonly entries: readonly SummaryEntry[];
  /** Refs a diff says are gone. */
  readonly removed: readonly string[];
  /** The summary as the client got it (whole, part or diff). */
  readonly summary: Readonly<Record<string, unknown>>;
  /** Each entry's bounds by ref, when the line kept them (a tree's line). */
  readonly bounds: Readonly<Record<string, Box>>;
}

/** Where an entry of the screen the model held was read. */
export interface EntryAt {
  readonly entry: SummaryEntry;
  readonly at: ReadAt;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function records(value: unknown): SummaryEntry[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** The read a call's answer carried, or null (a failed call, a call that answers no screen). */
export function readOf(call: TraceCall, index: number): ReadAt | null {
  if (!call.ok) return null;
  const data = call.envelope.data;
  const summary = isRecord(data.after) ? data.after : data;
  // A summary without a read id (a trace written before reads had ids) still counts when it lists actions.
  if (typeof summary.read !== 'string' && !Array.isArray(summary.actions)) return null;
  return {
    index,
    read: typeof summary.read === 'string' ? summary.read : '',
    diffOf: typeof summary.diff_of === 'string' ? summary.diff_of : null,
    entries: [...records(summary.actions), ...records(summary.added), ...records(summary.changed)],
    removed: Array.isArray(summary.removed) ? summary.removed.filter((r): r is string => typeof r === 'string') : [],
    summary,
    bounds: call.bounds ?? {},
  };
}

/** Every read of the trace, in call order. */
export class TraceReads {
  private readonly reads: readonly ReadAt[];

  constructor(readonly calls: readonly TraceCall[]) {
    this.reads = calls.flatMap((call, index) => {
      const read = readOf(call, index);
      return read ? [read] : [];
    });
  }

  /** The last read answered before call `index`: what the model had when it chose that call. */
  before(index: number): ReadAt | null {
    let last: ReadAt | null = null;
    for (const read of this.reads) if (read.index < index) last = read;
    return last;
  }

  /** The read a diff patches: the latest earlier read with that id. */
  base(of: ReadAt): ReadAt | null {
    if (of.diffOf === null) return null;
    let found: ReadAt | null = null;
    for (const read of this.reads) if (read.index < of.index && read.read === of.diffOf) found = read;
    return found;
  }

  /**
   * The screen `at` stands for, entry by entry, each with the read that listed it: a diff's own
   * entries first, then its base's entries that it neither removed nor changed, and so on back.
   */
  screen(at: ReadAt): EntryAt[] {
    const out: EntryAt[] = [];
    const seen = new Set<string>();
    const gone = new Set<string>();
    for (let read: ReadAt | null = at, hops = 0; read !== null && hops < 16; read = this.base(read), hops++) {
      for (const entry of read.entries) {
        const ref = typeof entry.ref === 'string' ? entry.ref : null;
        if (ref !== null && (seen.has(ref) || gone.has(ref))) continue;
        if (ref !== null) seen.add(ref);
        out.push({ entry, at: read });
      }
      for (const ref of read.removed) gone.add(ref);
    }
    return out;
  }

  /**
   * The read that holds `ref` for call `index`: in the screen of the read before it (a diff's
   * entries, then what it patches), else the latest earlier read that listed it (a ref lives for
   * several reads, so the model may have taken it from an older one).
   */
  holderOf(ref: string, index: number): EntryAt | null {
    const last = this.before(index);
    const onScreen = last ? this.screen(last).find((e) => e.entry.ref === ref) : undefined;
    if (onScreen) return onScreen;
    for (let i = this.reads.length - 1; i >= 0; i--) {
      const read = this.reads[i]!;
      if (read.index >= index) continue;
      const entry = read.entries.find((e) => e.ref === ref);
      if (entry) return { entry, at: read };
    }
    return null;
  }
}
