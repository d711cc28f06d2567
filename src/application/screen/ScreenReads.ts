/**
 * The reads a client was answered (docs/reference/contract.md, "Only what changed"): every summary that
 * goes out (ui_get_tree, an action's `after`, ui_wait) gets a read id and becomes the last read of
 * its device, and the next one may be sent as a diff against it or one of the reads just before. "The client" is this server
 * process: one per stdio client, shared by the callers of one stateless HTTP server, which is why
 * every diff names the read it is relative to.
 *
 * Also the one place that answers "what did the model read last?" (`last`, `latest`), for anyone
 * who records calls.
 */
import type { DeviceGateway } from '../../domain/ports.js';
import { SUMMARY_BUDGET_BYTES, wireBytesOfJson } from '../../domain/summary/answerBudget.js';
import { diffSummaries, isSameScreen } from '../../domain/summary/screenDiff.js';
import { fitSummaryToBudget } from '../../domain/summary/summaryBudget.js';
import { REF_GENERATIONS, type RefLookup, type RefOrigin, type RefRegistry } from './RefRegistry.js';
import type { ScreenSummary } from '../../domain/tree/screen.js';
import type { ScreenReading } from './ScreenReader.js';
import type { VisualReader } from './VisualReader.js';
import { summaryForAnswer, type WireSummary } from './wireSummary.js';

/** One read as the client was answered it. */
export interface LastRead {
  /** `r` + a base-36 serial that only grows while the server runs. */
  readonly read: string;
  /** The foreground package and activity of the reading (a diff needs both the same). */
  readonly foregroundPackage: string | null;
  readonly foregroundActivity: string | null;
  /** The whole screen that read stands for (refs, no bounds), whether it went out whole or as a diff. */
  readonly summary: WireSummary;
}

export interface ReadOptions {
  /** A diff against the device's last read is wanted when the screen is the same one. */
  readonly diff: boolean;
  /** Bounds in the entries: such an answer always goes whole (a diff carries no bounds). */
  readonly includeBounds?: boolean;
  /**
   * The read is an action's `after` (docs/reference/contract.md, "The screen after an action"), beside the
   * action's own `data`: `screen` is left out (it changes only when the device turns, and
   * ui_get_tree answers it), and so is `foreground_package` when it is `namedPackage`, the
   * package the action's data already names. A model reads every answer: neither is said twice.
   */
  readonly after?: { readonly namedPackage: string | null | undefined };
  /** The tool whose answer this is, when not ui_get_tree (an `after` says so itself): a STALE_REF names it. */
  readonly origin?: Exclude<RefOrigin, 'after' | 'refusal'>;
}

/**
 * How many of a device's reads a diff may be relative to: the last one and those just before it.
 * Back returns to a screen read a few steps ago, whose entries keep their refs: a diff against that
 * read says "nothing changed" where the last read would make it the whole screen again. Past the
 * refs' own life no entry of an older read would still carry its ref, so that is the bound.
 */
export const DIFF_BASES = REF_GENERATIONS;

export class ScreenReads {
  private serial = 0;
  /** Per device, its recent reads, the newest first (at most DIFF_BASES). */
  private readonly byDevice = new WeakMap<DeviceGateway, readonly LastRead[]>();
  private newest: LastRead | undefined;

  constructor(
    private readonly refs: RefRegistry,
    /** Absent: no visual entries in `after` nor ui_wait (a harness built without an OCR port, as most unit tests are). */
    private readonly visual?: VisualReader,
  ) {}

  /**
   * The reading with what OCR reads where its tree is silent (docs/reference/summary.md, "Visual
   * refs"); the same reading, with no screenshot and no OCR, when the tree names everything. Every
   * summary that goes out whole (an action's `after`, ui_wait) answers the pixels as ui_get_tree does.
   */
  async withVisual(device: DeviceGateway, reading: ScreenReading): Promise<ScreenReading> {
    return this.visual ? this.visual.withVisual(device, reading) : reading;
  }

  /**
   * The reading as it is answered: refs attached, within the summary's share of the answer
   * budget, with its read id; a diff when asked for, the screen is the same one as one of the
   * device's recent reads and the diff is the smaller. Recorded as the device's last read either way.
   */
  answer(device: DeviceGateway, reading: ScreenReading, options: ReadOptions): Record<string, unknown> {
    return this.answerAndBounds(device, reading, options).answer;
  }

  /**
   * `answer`, and each offered entry's bounds by its ref for the run's trace (a person's view of
   * what the model read, never the answer): one attach, so the read counts once in a ref's life.
   */
  answerAndBounds(
    device: DeviceGateway,
    reading: ScreenReading,
    options: ReadOptions,
  ): { answer: Record<string, unknown>; bounds: Record<string, ScreenSummary['actions'][number]['bounds']> } {
    const withRefs = this.refs.attach(reading, options.after ? 'after' : (options.origin ?? 'ui_get_tree'));
    const bounds = Object.fromEntries(withRefs.actions.map((entry) => [entry.ref, entry.bounds] as const));
    return { answer: this.answerFor(device, reading, withRefs, options), bounds };
  }

  private answerFor(
    device: DeviceGateway,
    reading: ScreenReading,
    withRefs: ScreenSummary,
    options: ReadOptions,
  ): Record<string, unknown> {
    const whole = fitSummaryToBudget(summaryForAnswer(withRefs, false), SUMMARY_BUDGET_BYTES);
    const recent = this.byDevice.get(device) ?? [];
    this.serial += 1;
    const read = `r${this.serial.toString(36)}`;
    const record: LastRead = {
      read,
      foregroundPackage: reading.window.foregroundPackage,
      foregroundActivity: reading.window.foregroundActivity ?? null,
      summary: whole,
    };
    this.byDevice.set(device, [record, ...recent].slice(0, DIFF_BASES));
    this.newest = record;
    if (options.includeBounds === true)
      return { read, ...fitSummaryToBudget(summaryForAnswer(withRefs, true), SUMMARY_BUDGET_BYTES) };
    // The base stays whole either way: the next diff is computed against the screen, not this answer.
    const shown = (answer: Record<string, unknown>): Record<string, unknown> =>
      options.after ? withoutRepeats(answer, options.after.namedPackage) : answer;
    let smallest = shown({ read, ...whole });
    // Visual refs are new on every read: a diff would have to repeat them all, so such a read goes whole.
    if (!options.diff || whole.visual !== undefined) return smallest;
    let smallestBytes = wireBytesOfJson(JSON.stringify(smallest));
    // The newest base first: on a tie the last read wins.
    for (const base of recent) {
      if (!sameWindow(base, record) || !isSameScreen(base.summary, whole)) continue;
      const diff = shown({ read, diff_of: base.read, ...diffSummaries(base.summary, whole) });
      const bytes = wireBytesOfJson(JSON.stringify(diff));
      if (bytes < smallestBytes) [smallest, smallestBytes] = [diff, bytes];
    }
    return smallest;
  }

  /**
   * A part of the screen (one container, the texts alone): refs attached as for a whole read (the
   * same elements keep the same refs), a read id of its own, never recorded as the last read: a
   * part is never a diff's base.
   */
  part(reading: ScreenReading, shape: (withRefs: ScreenSummary) => object): Record<string, unknown> {
    const withRefs = this.refs.attach(reading);
    this.serial += 1;
    return { read: `r${this.serial.toString(36)}`, ...shape(withRefs) };
  }

  /** What a ref names (the registry's answer), for a part read `within` a ref. */
  lookupRef(ref: string): RefLookup {
    return this.refs.lookup(ref);
  }

  /** The device's last read, as the client was answered it (undefined before any). */
  last(device: DeviceGateway): LastRead | undefined {
    return this.byDevice.get(device)?.[0];
  }

  /** The last read of any device. */
  latest(): LastRead | undefined {
    return this.newest;
  }
}

/** An `after` without what its action's answer already says: `screen`, and the package the action names. */
function withoutRepeats(
  answer: Record<string, unknown>,
  namedPackage: string | null | undefined,
): Record<string, unknown> {
  const { screen: _screen, ...rest } = answer;
  if (rest.foreground_package !== namedPackage) return rest;
  const { foreground_package: _package, ...lean } = rest;
  return lean;
}

function sameWindow(a: LastRead, b: LastRead): boolean {
  return a.foregroundPackage === b.foregroundPackage && a.foregroundActivity === b.foregroundActivity;
}
