/** A rectangle as Android reports it: `[left,top][right,bottom]`, in physical pixels. */
export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** A point on the screen in physical pixels: where a gesture goes, never something the model sends. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * What goes out to the model for auditing, never accepted as input: `[left, top, width, height]`
 * in physical pixels. An array rather than four named keys: it is repeated on every offered
 * action, and the names cost more than the numbers (bench/README.md, part 1).
 */
export type BoxBounds = readonly [left: number, top: number, width: number, height: number];

/**
 * One node of a UI hierarchy, whichever dump shape it came from
 * (uiautomator `<node class=…>` or Appium page source with class-named tags).
 */
export interface UiNode {
  /** Position in document order, 0-based, over every node of the tree. */
  readonly order: number;
  readonly className: string;
  readonly packageName: string;
  readonly resourceId: string;
  readonly text: string;
  readonly contentDesc: string;
  readonly hint: string;
  /**
   * UiAutomator2's page source says whether the field shows its hint (`showing-hint`);
   * null when the dump does not carry the attribute (`uiautomator dump` never does).
   */
  readonly showingHint: boolean | null;
  readonly checkable: boolean;
  readonly checked: boolean;
  readonly clickable: boolean;
  readonly longClickable: boolean;
  readonly enabled: boolean;
  readonly focusable: boolean;
  readonly focused: boolean;
  readonly scrollable: boolean;
  readonly selected: boolean;
  /** A password field: its text is never repeated (docs/reference/summary.md, "Password fields"). */
  readonly password: boolean;
  /** null when the dump gave no bounds. */
  readonly bounds: Rect | null;
  readonly parent: UiNode | null;
  readonly children: readonly UiNode[];
}

export interface UiTree {
  /** Every node in document order (the `<hierarchy>` element itself is not a node). */
  readonly nodes: readonly UiNode[];
  /** Top-level nodes, children of `<hierarchy>`. */
  readonly roots: readonly UiNode[];
  /** `rotation` attribute of `<hierarchy>` when present. */
  readonly rotation: number | null;
  /** `width`/`height` attributes of `<hierarchy>` when present (Appium page source has them). */
  readonly declaredSize: { readonly width: number; readonly height: number } | null;
}
