import type { Rect, BoxBounds } from './uiNode.js';
import { OFFERED_SELECTOR_KEYS, type WireSelector, type WireSelectorTerm } from '../selectors/selector.js';

/** What the device says about the screen around the dump (read through adb, parsed elsewhere). */
export interface ImeState {
  readonly visible: boolean;
  /** The input method's frame when visible, else null. */
  readonly frame: Rect | null;
}

/**
 * `PowerManagerInternal.wakefulnessToString`, as `dumpsys power` prints `mWakefulness=`: only
 * Awake is a screen someone can use; Dreaming is a screensaver over it, Dozing an ambient display.
 */
export type Wakefulness = 'Awake' | 'Asleep' | 'Dreaming' | 'Dozing';

/** The lock screen and the display, as `dumpsys window` tells them. */
export interface ScreenLock {
  /** The keyguard is showing and no activity is shown over it. */
  readonly locked: boolean;
  /** The display is on (`mAwake`, else `mScreenOnFully`, else the keyguard delegate's screen state); null when the dump does not say. */
  readonly awake: boolean | null;
}

/**
 * The system bars' frames as `dumpsys window` reports them: a touch that starts there
 * goes to System UI, not to an app drawn edge to edge under them. null when the bar is hidden
 * or not reported.
 */
export interface SystemBars {
  readonly status: Rect | null;
  readonly navigation: Rect | null;
}

export interface WindowState {
  /** Package of the focused window, or null when adb could not tell. */
  readonly foregroundPackage: string | null;
  /**
   * Activity of the focused window, fully qualified (`com.app.MainActivity`), when adb told; part
   * of a ref's identity (src/domain/refs). Optional: readers that do not know it leave it out.
   */
  readonly foregroundActivity?: string | null;
  readonly ime: ImeState;
  /** Logical display size when dumpsys reported it. */
  readonly displaySize: { readonly width: number; readonly height: number } | null;
  /** The lock screen and the display; readers that do not know leave it out (unlocked, awake). */
  readonly lock?: ScreenLock;
  /** The status and navigation bars; absent when the reader does not know them (no bar is assumed). */
  readonly systemBars?: SystemBars;
  /**
   * The default display's density as apps are laid out with it (`wm density`'s override, else the
   * panel's own), when the window dump printed it; absent or null: ask `wm density`.
   */
  readonly density?: number | null;
}

/** Everything the summary needs besides the tree itself. */
export interface ScreenContext {
  readonly density: number;
  readonly window: WindowState;
}

export type Role = 'input' | 'toggle' | 'button' | 'long-press';

/** Why an element cannot take a tap at all: the summary's `not_actionable` fact, in its own words. */
export type NotActionable = 'no_area' | 'under_status_bar' | 'under_navigation_bar' | 'covered_by_keyboard';

/** Where the label of an entry without selector came from, when not from the element itself. */
export type LabelSource = 'descendant' | 'neighbour';

/**
 * One offered target. Compact by design (it is repeated up to 120 times): a field that would
 * only repeat what the entry already says is left out, and its absence has one fixed meaning.
 * Flat: the selector's keys (`id`, `text`, … and `within`) ARE the entry's keys beside
 * `ref` and the facts below; none of the facts is a selector key (wireSummary.selectorOfEntry
 * reads the selector back). Absent selector keys: no selector names the element alone (it has no
 * attribute a selector could use, or it is `ambiguous`); then only `ref` names it.
 */
export type ActionEntry = EntrySelector & ActionFacts;

/** The selector part of an entry: its offered keys, spread into the entry (never state flags nor instance). */
export type EntrySelector = WireSelectorTerm & { readonly within?: WireSelectorTerm };

export interface ActionFacts {
  /**
   * Names exactly this element for ui_tap / ui_type_text (`{"ref": "e12"}`), for as long as it
   * stays that element (docs/reference/summary.md, "Refs"). Set by the application's ref registry; the pure
   * summary leaves it out.
   */
  readonly ref?: string;
  /** What the element says; absent when the selector's value already says exactly that, or when it says nothing. */
  readonly label?: string;
  /**
   * Only for a label that is not the element's own: where it was read (an entry without selector,
   * or a toggle without text named by its row's title).
   */
  readonly label_from?: LabelSource;
  /**
   * The row's second line (an app's size, a setting's summary): the first text of the element's own
   * content that is not its name. Absent when the content says nothing more.
   */
  readonly detail?: string;
  /** Absent means `button`, the role of almost every entry, or `toggle` on an entry with `checked`. */
  readonly role?: Exclude<Role, 'button'>;
  /** Present only when the element is disabled. */
  readonly enabled?: false;
  /**
   * `[left, top, width, height]`, for auditing. The domain always writes it; the answer leaves it
   * out unless the caller asked for `include_bounds` (application/screen/wireSummary.ts).
   */
  readonly bounds: BoxBounds;
  /** Toggles only. */
  readonly checked?: boolean;
  /**
   * Inputs only: nothing is typed in the field. Android reports an empty field's hint as its
   * text (`text="Email"`), so a field whose text is its hint, or is empty, is empty.
   */
  readonly empty?: true;
  readonly disambiguated?: true;
  readonly ambiguous?: true;
  readonly covered_by_keyboard?: true;
  /**
   * Present only when no tap can reach the element (docs/reference/summary.md, "Not actionable"): it has no
   * visible area, or lies wholly under a system bar or the keyboard. Such an entry gets no ref.
   */
  readonly not_actionable?: NotActionable;
}

/** Which way a listed container scrolls: `vertical` when the entry leaves it out. */
export function orientationOfEntry(entry: ScrollableEntry): 'vertical' | 'horizontal' {
  return entry.orientation ?? 'vertical';
}

/** The role an entry declares: `toggle` when it says `checked` without one, else `button` when it leaves it out. */
export function roleOfEntry(entry: ActionEntry): Role {
  return entry.role ?? (entry.checked !== undefined ? 'toggle' : 'button');
}

/** The entry's selector key (its target term's key), or null when no selector names it. */
export function selectorKeyOf(entry: EntrySelector): (typeof OFFERED_SELECTOR_KEYS)[number] | null {
  return OFFERED_SELECTOR_KEYS.find((key) => typeof entry[key] === 'string') ?? null;
}

/** The selector part of a flat entry, as ui_tap takes it (`within` included), or null without one. */
export function selectorOfEntry(entry: EntrySelector): WireSelector | null {
  const key = selectorKeyOf(entry);
  if (key === null) return null;
  return { [key]: entry[key], ...(entry.within ? { within: entry.within } : {}) };
}

/** The selector's own value (its target term), which doubles as the label when `label` is absent. */
export function selectorValueOf(entry: EntrySelector): string {
  const key = selectorKeyOf(entry);
  return key === null ? '' : (entry[key] ?? '');
}

/** What a model reads as the entry's name: its label, else the value of its selector. */
export function nameOfEntry(entry: EntrySelector & { readonly label?: string }): string {
  return entry.label ?? selectorValueOf(entry);
}

/**
 * One scrollable container. Its selector (absent when the container has no
 * name of its own) goes unchanged to ui_scroll's `selector`; `orientation` (inferred:
 * docs/reference/summary.md, "Scrollable containers") is written only for a horizontal one: absent
 * means vertical, the common case, as an absent `role` means button.
 */
export interface ScrollableEntry {
  readonly selector?: WireSelector;
  /** For auditing; left out of the answer unless `include_bounds` (as an action's). */
  readonly bounds: BoxBounds;
  readonly orientation?: 'horizontal';
  readonly ambiguous?: true;
}

export type LayoutIssue =
  'no_area' | 'off_screen' | 'touch_target_too_small' | 'under_status_bar' | 'under_navigation_bar';

/**
 * Layout findings, grouped: one per issue for the offered actions it concerns. The pure summary
 * names them by their index in `actions` (it gives no refs); the answer names them by their refs
 * (src/application/screen/RefRegistry.ts, `attach`), which each action's bounds go with. An entry
 * cut by the 120-action limit has neither: a finding on it stands alone and carries its selector,
 * label and size itself.
 */
export type LayoutFinding =
  | {
      readonly issue: LayoutIssue;
      /** Indexes into `actions`, in screen order (the pure summary's, before refs are given). */
      readonly actions: readonly number[];
      /** Only for touch_target_too_small: ceil(48 * density / 160). */
      readonly minimum_px?: number;
    }
  | {
      readonly issue: LayoutIssue;
      /** The refs of the offered actions it concerns, in screen order (as answered). */
      readonly refs: readonly string[];
      readonly minimum_px?: number;
    }
  | {
      readonly issue: LayoutIssue;
      /** Absent for an entry without selector (only its ref, which a cut entry does not get, would name it). */
      readonly selector?: WireSelector;
      readonly label?: string;
      /** [width, height] in pixels. */
      readonly size_px: readonly [number, number];
      readonly minimum_px?: number;
    };

/**
 * The screen in the server's own vocabulary, in its compact form (docs/reference/summary.md).
 * `texts` leaves out strings an offered action already shows. What would say "nothing" is left
 * out: `keyboard` is present only when it is open, `layout_findings` only when there are some,
 * `truncated` (always `true`) and `counts` only when a list was cut.
 */
export interface ScreenSummary {
  readonly foreground_package: string;
  readonly screen: { readonly width: number; readonly height: number };
  readonly texts: readonly string[];
  readonly actions: readonly ActionEntry[];
  readonly can_scroll: boolean;
  /** The visible scrollable containers, in screen order; absent when there is none. */
  readonly scrollables?: readonly ScrollableEntry[];
  readonly keyboard?: { readonly open: true; readonly top: number };
  readonly layout_findings?: readonly LayoutFinding[];
  /** Before the cut; `layout_findings` counts single findings (one per issue and target). */
  readonly counts?: { readonly texts: number; readonly actions: number; readonly layout_findings: number };
  readonly truncated?: true;
  /** Lines read from pixels where the tree is silent (docs/reference/summary.md, "Visual refs"); absent when none. */
  readonly visual?: readonly VisualWireEntry[];
  /** The tree leaves content unexposed but no OCR engine is installed: what to install. */
  readonly visual_unavailable?: string;
}

/** A visual entry as answered: read from pixels (`source: "ocr"`), never from the app. */
export interface VisualWireEntry {
  readonly ref: string;
  readonly text: string;
  readonly role: 'visual';
  readonly source: 'ocr';
  readonly bounds: BoxBounds;
  readonly confidence: number;
}
