/**
 * The scenario model: what the virtual device shows and how it reacts.
 * Screens are trees of node specs in uiautomator vocabulary; behaviour is attached
 * to nodes as actions. Everything here is plain data, so a scenario can be JSON.
 */

/** `[left, top, right, bottom]` in screen pixels (content pixels inside a scrollable). */
export type BoundsTuple = readonly [number, number, number, number];

export type Action =
  /** Push a screen (optionally with parameters substituted into `{{name}}` placeholders). */
  | {
      readonly type: 'goto';
      readonly screen: string;
      readonly params?: Readonly<Record<string, string>>;
      /** Replace the current screen instead of pushing (tabs inside one activity). */
      readonly replace?: boolean;
    }
  /** What the back key does. */
  | { readonly type: 'back' }
  | { readonly type: 'home' }
  /** Start a package's launcher activity (launcher icons). */
  | { readonly type: 'launch'; readonly package: string }
  /** Flip `checked` of a node (default: the clicked node). */
  | { readonly type: 'toggle'; readonly node?: string }
  /** Focus a text field and open the IME (default: the clicked node). */
  | { readonly type: 'focus'; readonly node?: string }
  /** Set a node's text from a template: `{{@key}}` is another node's text, `{{name}}` a screen parameter. */
  | { readonly type: 'setText'; readonly node: string; readonly template: string }
  | { readonly type: 'hideKeyboard' }
  /** The app writes a line to logcat (main buffer, its own pid). */
  | {
      readonly type: 'log';
      readonly priority: 'V' | 'D' | 'I' | 'W' | 'E' | 'F';
      readonly tag: string;
      readonly message: string;
    }
  /**
   * The app throws an uncaught exception on its main thread: RuntimeInit logs
   * `FATAL EXCEPTION` to the crash buffer, the process dies and its screens leave the stack.
   * `frames` are the `at …` lines, without the tab.
   */
  | {
      readonly type: 'crash';
      readonly exception: string;
      readonly message?: string;
      readonly frames: readonly string[];
    };

export interface NodeSpec {
  /** Stable identity within its screen (state and element ids hang on it); assigned from the tree path when absent. */
  readonly key?: string;
  readonly class: string;
  readonly text?: string;
  readonly resourceId?: string;
  readonly contentDesc?: string;
  readonly hint?: string;
  /** Defaults to the screen's package. */
  readonly package?: string;
  readonly bounds: BoundsTuple;
  readonly checkable?: boolean;
  readonly checked?: boolean;
  readonly clickable?: boolean;
  readonly enabled?: boolean;
  readonly focusable?: boolean;
  readonly focused?: boolean;
  readonly scrollable?: boolean;
  /**
   * Which way a scrollable node scrolls (default vertical; a HorizontalScrollView is horizontal
   * whatever this says). Dumps never say it: like Android, the device only shows its effect,
   * children laid out side by side that move sideways.
   */
  readonly orientation?: 'vertical' | 'horizontal';
  readonly longClickable?: boolean;
  readonly password?: boolean;
  readonly selected?: boolean;
  /**
   * A Flutter text field: Flutter's RenderEditable offers the set-text action only
   * while the field has focus, so UiAutomator2's set-text on it fails until a tap focuses it.
   */
  readonly setTextNeedsFocus?: boolean;
  readonly onClick?: readonly Action[];
  /**
   * What a long click does on a long-clickable node (its OnLongClickListener). Absent: the long
   * click is not handled, and Android then clicks the node when the press is released.
   */
  readonly onLongClick?: readonly Action[];
  /**
   * Children. Inside a scrollable node they are in content coordinates: they move with the
   * node's scroll offset (up for a vertical one, left for a horizontal one) and only those
   * inside its bounds are on screen (as a RecyclerView does).
   */
  readonly children?: readonly NodeSpec[];
  /** For a scrollable list: show only children whose texts contain the text of this node (search results), restacked. */
  readonly filterBy?: string;
  /**
   * What the view draws into its own pixels and no accessibility node reports: a game's menu on a
   * SurfaceView, a canvas-drawn button bar. Shown in screenshots, absent from dumps and page sources;
   * a touch inside an item runs its actions (the view's own onTouchEvent, clickable or not).
   */
  readonly drawn?: readonly DrawnSpec[];
}

/** One item a view draws in pixels only, at screen bounds. */
export interface DrawnSpec {
  readonly text: string;
  readonly bounds: BoundsTuple;
  readonly onClick?: readonly Action[];
  /**
   * How it is painted: `button` (default) white text centred on a filled box; `text` a page's body
   * text, dark, left-aligned, no box; `link` a page's link, blue and underlined.
   */
  readonly style?: DrawnStyle;
}

export type DrawnStyle = 'button' | 'text' | 'link';

export interface ScreenSpec {
  readonly id: string;
  readonly package: string;
  /** Activity class, fully qualified or `.Short` relative to the package. */
  readonly activity: string;
  readonly root: NodeSpec;
  /** What back does here (default: pop to the previous screen). */
  readonly onBack?: readonly Action[];
  /** Key of a text field that is focused, with the IME open, when the screen opens. */
  readonly focusOnOpen?: string;
  /**
   * A System UI window drawn over the activity behind (the pulled-down notification shade), not
   * an activity: `dumpsys window` gives it the focus by its title while the activity behind stays
   * the focused app.
   */
  readonly systemWindow?: 'NotificationShade';
  /** A static screen never changes: clicks are logged and nothing else happens. */
  readonly static?: boolean;
  /**
   * The activity's window sets WindowManager.LayoutParams.FLAG_SECURE (login and banking screens):
   * `dumpsys window` prints `SECURE` among its `fl=` flags, and while it is visible SurfaceFlinger
   * refuses every screenshot the shell or UiAutomation asks for (docs/internals/device-quirks.md, "Secure windows").
   */
  readonly secure?: boolean;
}

export interface PackageSpec {
  readonly name: string;
  readonly label?: string;
  /** The MAIN/LAUNCHER activity and the screen it shows. */
  readonly launcher?: { readonly activity: string; readonly screen: string };
  /** Other startable activities (`am start -n pkg/act`) and their screens. */
  readonly activities?: Readonly<Record<string, string>>;
  /**
   * VIEW intent filters (deep links): a link whose scheme (and host, when given) matches opens
   * `activity`, which must be the launcher or one of `activities`. Schemes match exactly, as
   * IntentFilter.matchData does.
   */
  readonly links?: readonly LinkFilterSpec[];
  /** Listed by `pm list packages -3`. */
  readonly thirdParty?: boolean;
  readonly versionCode?: number;
  readonly versionName?: string;
}

export interface LinkFilterSpec {
  readonly scheme: string;
  readonly host?: string;
  readonly activity: string;
}

export interface ScenarioSpec {
  readonly name: string;
  /** The launcher's screen id (HOME). */
  readonly home: string;
  /** The screen shown at boot (default: home). */
  readonly start?: string;
  readonly packages: readonly PackageSpec[];
  readonly screens: readonly ScreenSpec[];
  /** Implicit intents: action → screen (`am start -a android.settings.APPLICATION_SETTINGS`). */
  readonly intents?: Readonly<Record<string, string>>;
}

export const SCREEN_WIDTH = 1080;
export const SCREEN_HEIGHT = 2400;
export const PHYSICAL_DENSITY = 420;
export const STATUS_BAR_HEIGHT = 63;
export const NAVIGATION_BAR_HEIGHT = 126;
/** Where the IME sits when it is open (as a Pixel 7-like device at 420 dpi reports it). */
export const IME_FRAME: BoundsTuple = [0, 1517, 1080, 2400];

/** `.Act` → `pkg.Act`; an already qualified name is returned as is. */
export function qualifyActivity(pkg: string, activity: string): string {
  return activity.startsWith('.') ? `${pkg}${activity}` : activity;
}

/** `pkg.Act` → `.Act` when it lives under the package (the short form dumpsys prints). */
export function shortActivity(pkg: string, activity: string): string {
  const full = qualifyActivity(pkg, activity);
  return full.startsWith(`${pkg}.`) ? full.slice(pkg.length) : full;
}
