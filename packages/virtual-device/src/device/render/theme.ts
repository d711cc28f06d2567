/**
 * Colours and sizes of a Pixel on Android 14 in its light Material 3 theme, at 420 dpi
 * (1 dp = 2.625 px), so the captures look like the phone the scenario describes.
 */
export const DP = 420 / 160;

export const COLOURS = {
  background: '#FAF9FD',
  onSurface: '#1A1B20',
  onSurfaceVariant: '#44474F',
  disabled: '#A9ABB3',
  primary: '#3A5BA9',
  onPrimary: '#FFFFFF',
  primaryContainer: '#D9E2FF',
  onPrimaryContainer: '#0F2D6B',
  secondaryContainer: '#DCE2F9',
  surfaceContainer: '#EEEDF2',
  surfaceContainerHigh: '#E8E7EC',
  surfaceContainerHighest: '#E2E2E6',
  outline: '#757780',
  outlineVariant: '#C5C6D0',
  divider: '#E3E2E8',
  /** The launcher's wallpaper, top to bottom. */
  wallpaperTop: '#17375E',
  wallpaperBottom: '#6A96BF',
  onWallpaper: '#FFFFFF',
  keyboard: '#E6E8EE',
  key: '#FFFFFF',
  keyModifier: '#C9CFDA',
  keyLabel: '#1F1F1F',
} as const;

/** Text sizes in px: 16 sp body, 14 sp secondary and labels, 12 sp launcher labels. */
export const TEXT = {
  body: 16 * DP,
  secondary: 14 * DP,
  label: 14 * DP,
  small: 12 * DP,
  statusBar: 14 * DP,
  key: 21 * DP,
} as const;

/** Tints for letter icons (app icons, list icons), picked by a stable hash of the label. */
export const ICON_TINTS = [
  '#3A5BA9',
  '#2E7D5B',
  '#B3261E',
  '#8B5000',
  '#6750A4',
  '#006A6A',
  '#7D5260',
  '#005AC1',
] as const;

export function tintFor(label: string): string {
  // FNV-1a: small and stable across runs, so a label always gets the same colour.
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ICON_TINTS[h % ICON_TINTS.length] ?? COLOURS.primary;
}
