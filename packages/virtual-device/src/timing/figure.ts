/**
 * One operation's time on a real device: its median and 90th percentile as recorded, where the
 * record comes from, and how the time grows with the work (nodes serialised, pixels captured).
 */
export interface Figure {
  /** Median, in ms, at the reference size (no size: the whole operation). */
  readonly medianMs: number;
  /** 90th percentile, in ms, at the same size: the tail the draw reproduces. */
  readonly p90Ms: number;
  /** Added per node of the window's hierarchy (dump, page source). */
  readonly perNodeMs?: number;
  /** The display the figure was recorded on, in megapixels: a capture scales in proportion to pixels. */
  readonly referenceMegapixels?: number;
  /** Where the figure comes from: the log or thread, its API level and device kind, its n. */
  readonly source: string;
}

/** How big this operation's work is on the device of the moment. */
export interface Scale {
  readonly nodes?: number;
  readonly megapixels?: number;
}

/** z of the 90th percentile of a standard normal. */
const Z90 = 1.2815515655446004;

/**
 * A log-normal draw through the figure's median and p90 (request times are right-skewed: most near
 * the median, a long tail), scaled by the pixels captured and plus the per-node part. Capped at three times the p90 so one
 * unlucky draw does not stall a run for minutes. `normal` is a standard normal variate.
 */
export function drawMs(figure: Figure, scale: Scale, normal: number): number {
  const sigma = figure.p90Ms > figure.medianMs ? Math.log(figure.p90Ms / figure.medianMs) / Z90 : 0;
  const drawn = Math.min(figure.medianMs * Math.exp(sigma * normal), 3 * figure.p90Ms);
  const pixels =
    figure.referenceMegapixels !== undefined && scale.megapixels !== undefined
      ? scale.megapixels / figure.referenceMegapixels
      : 1;
  return Math.max(0, Math.round(drawn * pixels + (figure.perNodeMs ?? 0) * (scale.nodes ?? 0)));
}
