import type { BoundsTuple } from '../scenario/model.js';

export interface Rect {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export function rectOf(bounds: BoundsTuple, dy = 0, dx = 0): Rect {
  return { left: bounds[0] + dx, top: bounds[1] + dy, right: bounds[2] + dx, bottom: bounds[3] + dy };
}

export function intersect(a: Rect, b: Rect): Rect | null {
  const r = {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
  return r.right > r.left && r.bottom > r.top ? r : null;
}

export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
}

export function center(r: Rect): { x: number; y: number } {
  return { x: Math.floor((r.left + r.right) / 2), y: Math.floor((r.top + r.bottom) / 2) };
}

/** uiautomator's `[l,t][r,b]`. */
export function formatBounds(r: Rect): string {
  return `[${r.left},${r.top}][${r.right},${r.bottom}]`;
}

export function parseBounds(value: string): Rect | null {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(value.trim());
  if (!m) return null;
  return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
}
