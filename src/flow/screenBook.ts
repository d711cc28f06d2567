/**
 * The screens a client was answered, read back whole: an answer's summary (ui_get_tree) or an
 * action's `after` is either the whole screen or a diff against an earlier read (`diff_of`,
 * docs/reference/contract.md, "Only what changed"). The flow runner and the trace exporter both need the
 * whole screen behind a diff (what to expect after a step, what a replay found), so both keep
 * every read here by its id and apply each diff to its base, as a model does.
 */

/** One screen as far as a replay checks it: the package in front and the strings it shows. */
export interface BookScreen {
  readonly foreground_package: string | null;
  readonly actions: readonly Readonly<Record<string, unknown>>[];
  readonly texts: readonly string[];
}

export class ScreenBook {
  private readonly reads = new Map<string, BookScreen>();

  /**
   * The whole screen an answer's data carries (its own summary or its `after`), recorded under
   * its read id; null when it carries none, or a diff whose base was never seen.
   */
  note(data: Readonly<Record<string, unknown>> | undefined): BookScreen | null {
    if (!data) return null;
    const summary = Array.isArray(data.actions) || typeof data.diff_of === 'string' ? data : recordOr(data.after);
    if (!summary) return null;
    // An `after` leaves out the package the action's own data names.
    const named = typeof data.foreground_package === 'string' ? data.foreground_package : null;
    const screen = this.whole(summary, named);
    if (screen && typeof summary.read === 'string') this.reads.set(summary.read, screen);
    return screen;
  }

  private whole(summary: Readonly<Record<string, unknown>>, named: string | null): BookScreen | null {
    const own = typeof summary.foreground_package === 'string' ? summary.foreground_package : named;
    if (typeof summary.diff_of !== 'string') {
      return {
        foreground_package: own,
        actions: records(summary.actions),
        texts: strings(summary.texts),
      };
    }
    const base = this.reads.get(summary.diff_of);
    if (!base) return null;
    const removed = new Set(strings(summary.removed));
    const changed = new Map(records(summary.changed).map((entry) => [entry.ref, entry]));
    const actions = base.actions
      .filter((entry) => typeof entry.ref !== 'string' || !removed.has(entry.ref))
      .map((entry) => changed.get(entry.ref) ?? entry);
    const texts = [...base.texts];
    for (const gone of strings(summary.texts_removed)) {
      const at = texts.indexOf(gone);
      if (at >= 0) texts.splice(at, 1);
    }
    return {
      foreground_package: own ?? base.foreground_package,
      actions: [...actions, ...records(summary.added)],
      texts: [...texts, ...strings(summary.texts_added)],
    };
  }
}

/** The names a screen shows: each entry's label and selector values, and its texts. */
export function namesOn(screen: BookScreen): Set<string> {
  const names = new Set<string>(screen.texts);
  for (const entry of screen.actions) {
    for (const key of ['label', 'text', 'content_desc', 'input_hint', 'id', 'resource_id']) {
      const value = entry[key];
      if (typeof value === 'string') names.add(value);
    }
  }
  return names;
}

function recordOr(value: unknown): Readonly<Record<string, unknown>> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function records(value: unknown): Readonly<Record<string, unknown>>[] {
  return Array.isArray(value) ? value.flatMap((item) => (recordOr(item) ? [item as Record<string, unknown>] : [])) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
