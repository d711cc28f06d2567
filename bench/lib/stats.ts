/** Order statistics for benchmark samples. Nearest-rank percentiles: no interpolation, so every figure was observed. */

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);
export const p90 = (samples: readonly number[]): number => percentile(samples, 90);
export const mean = (samples: readonly number[]): number =>
  samples.length === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / samples.length;
export const p95 = (samples: readonly number[]): number => percentile(samples, 95);

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Least-squares line y = a + b·x, used to express CPU cost against dump size. */
export function linearFit(points: readonly (readonly [number, number])[]): { intercept: number; slope: number } {
  const n = points.length;
  if (n < 2) return { intercept: Number.NaN, slope: Number.NaN };
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (const [x, y] of points) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return { intercept: (sy - slope * sx) / n, slope };
}
