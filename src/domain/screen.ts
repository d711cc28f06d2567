import type { Rect, BoxBounds } from './uiNode.js';
import type { WireSelector } from './selector.js';

/** What the device says about the screen around the dump (read through adb, parsed elsewhere). */
export interface ImeState {
  readonly visible: boolean;
  /** The input method's frame when visible, else null. */
  readonly frame: Rect | null;
}

export interface WindowState {
  /** Package of the focused window, or null when adb could not tell. */
  readonly foregroundPackage: string | null;
  readonly ime: ImeState;
  /** Logical display size when dumpsys reported it. */
  readonly displaySize: { readonly width: number; readonly height: number } | null;
}

/** Everything the summary needs besides the tree itself. */
export interface ScreenContext {
  readonly density: number;
  readonly window: WindowState;
}

export type Role = 'input' | 'toggle' | 'button' | 'long-press';

export interface ActionEntry {
  readonly selector: WireSelector;
  readonly label: string;
  readonly role: Role;
  readonly enabled: boolean;
  readonly bounds: BoxBounds;
  readonly checked?: boolean;
  readonly disambiguated?: true;
  readonly ambiguous?: true;
  readonly covered_by_keyboard?: true;
}

export type LayoutIssue = 'no_area' | 'off_screen' | 'touch_target_too_small';

export interface LayoutFinding {
  readonly issue: LayoutIssue;
  readonly selector: WireSelector;
  readonly label: string;
  /** [width, height] in pixels. */
  readonly size_px: readonly [number, number];
  /** Only for touch_target_too_small: ceil(48 * density / 160). */
  readonly minimum_px?: number;
}

/** CONTRACT §6: the screen in the server's own vocabulary. */
export interface ScreenSummary {
  readonly foreground_package: string;
  readonly screen: { readonly width: number; readonly height: number };
  readonly texts: readonly string[];
  readonly actions: readonly ActionEntry[];
  readonly can_scroll: boolean;
  readonly keyboard: { readonly open: boolean; readonly top: number | null };
  readonly layout_findings: readonly LayoutFinding[];
  readonly counts: { readonly texts: number; readonly actions: number; readonly layout_findings: number };
  readonly truncated: boolean;
}
