// STUB: signatures pinned for the other layers; the domain work replaces the bodies.
import type { Selector } from './selector.js';
import type { PackageName } from './ports.js';

export type ScrollDirection = 'up' | 'down';

/** CONTRACT §4 selector rules; throws HarnessError('INVALID_SELECTOR'). */
export function parseSelector(input: unknown): Selector {
  throw new Error(`not implemented ${String(input)}`);
}
/** 1..512 code points, no control characters; throws HarnessError('INVALID_TEXT'). */
export function parseText(input: unknown): string {
  throw new Error(`not implemented ${String(input)}`);
}
/** Throws HarnessError('INVALID_PACKAGE'). */
export function parsePackageName(input: unknown): PackageName {
  throw new Error(`not implemented ${String(input)}`);
}
/** Throws HarnessError('INVALID_SCROLL_DIRECTION'). */
export function parseDirection(input: unknown): ScrollDirection {
  throw new Error(`not implemented ${String(input)}`);
}
/** ^[A-Za-z0-9_-]{24,128}$; throws HarnessError('INVALID_UI_SESSION'). */
export function parseSessionId(input: unknown): string {
  throw new Error(`not implemented ${String(input)}`);
}
