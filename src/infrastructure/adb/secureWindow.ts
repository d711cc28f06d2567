/**
 * Which visible window of `dumpsys window` sets FLAG_SECURE. WindowState.dump prints each window's
 * LayoutParams (`mAttrs=WM.LayoutParams{… fl=LAYOUT_IN_SCREEN SECURE …}`, the flags by name in
 * ViewDebug.flagsToString; very old releases print `fl=#<hex>`) and its `mViewVisibility`.
 */
import { liveWindowLines } from './parsers.js';

/** WindowManager.LayoutParams.FLAG_SECURE. */
const FLAG_SECURE = 0x2000;
const WINDOW_HEADER = /^\s*Window #\d+ Window\{\S+ u\d+ ([^}]*)\}:\s*$/;
/** A component title: `pkg/activity`, the only part of the header that reaches a message. */
const COMPONENT = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*\/[A-Za-z0-9_.$]+$/;

export interface SecureWindow {
  /** `pkg/.Activity`, or null for a window without a component title. */
  readonly component: string | null;
}

/** The first visible window that sets FLAG_SECURE, or null when none does. */
export function parseSecureWindow(text: string): SecureWindow | null {
  let title: string | null = null;
  let secure = false;
  let visible = false;
  const finish = (): SecureWindow | null =>
    title !== null && secure && visible ? { component: COMPONENT.test(title) ? title : null } : null;
  for (const line of liveWindowLines(text)) {
    const header = WINDOW_HEADER.exec(line);
    if (header) {
      const found = finish();
      if (found) return found;
      title = header[1] ?? '';
      secure = false;
      visible = false;
      continue;
    }
    if (title === null) continue;
    // The window list ends at the first line back at the section's indentation (`  mGlobalConfiguration…`).
    if (/^\S/.test(line)) {
      const found = finish();
      if (found) return found;
      title = null;
      continue;
    }
    const flags = /\bfl=(#[0-9a-fA-F]+|[A-Z_]+(?: [A-Z_]+)*)/.exec(line);
    if (flags?.[1]) {
      const value = flags[1];
      secure = value.startsWith('#')
        ? (Number.parseInt(value.slice(1), 16) & FLAG_SECURE) !== 0
        : value.split(' ').includes('SECURE');
    }
    if (/\bmViewVisibility=0x0\b/.test(line)) visible = true;
  }
  return finish();
}
