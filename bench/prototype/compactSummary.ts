/**
 * A prototype compact presenter for the ui_get_tree summary, to show the domain engineer what each
 * change to the format would save, measured on the same fixtures. Every step keeps the round trip
 * intact: each action's `selector` is passed through unchanged, so it still goes straight into ui_tap.
 * The steps apply cumulatively, in the order listed.
 */
import type { ScreenSummary } from '../../src/domain/screen.js';

type Json = Record<string, unknown>;

export interface CompactStep {
  readonly id: string;
  readonly description: string;
  apply(summary: Json): Json;
}

const selectorValue = (selector: unknown): string | undefined => {
  if (!selector || typeof selector !== 'object') return undefined;
  const v = Object.entries(selector as Json).find(([k]) => k !== 'within')?.[1];
  return typeof v === 'string' ? v : undefined;
};

const mapActions = (s: Json, fn: (a: Json, i: number) => Json): Json => ({
  ...s,
  actions: (s['actions'] as Json[]).map(fn),
});

export const COMPACT_STEPS: readonly CompactStep[] = [
  {
    id: 'bounds-array',
    description: 'bounds as `[left, top, width, height]` instead of an object with four named keys',
    apply: (s) =>
      mapActions(s, (a) => {
        const b = a['bounds'] as { left: number; top: number; width: number; height: number };
        return { ...a, bounds: [b.left, b.top, b.width, b.height] };
      }),
  },
  {
    id: 'enabled-only-when-false',
    description: '`enabled` written only when false (it is true for almost every entry)',
    apply: (s) =>
      mapActions(s, (a) => {
        const { enabled, ...rest } = a;
        return enabled === false ? { ...rest, enabled: false } : rest;
      }),
  },
  {
    id: 'label-only-when-different',
    description: '`label` omitted when it equals the selector value (the model reads it there)',
    apply: (s) =>
      mapActions(s, (a) => {
        const { label, ...rest } = a;
        return label === selectorValue(a['selector']) || label === '' ? rest : { ...rest, label };
      }),
  },
  {
    id: 'texts-not-repeating-actions',
    description: '`texts` keeps only strings that no action already shows as its label or selector value',
    apply: (s) => {
      const shown = new Set<string>();
      for (const a of s['actions'] as Json[]) {
        const v = selectorValue(a['selector']);
        if (v) shown.add(v);
        if (typeof a['label'] === 'string') shown.add(a['label']);
      }
      return { ...s, texts: (s['texts'] as string[]).filter((t) => !shown.has(t)) };
    },
  },
  {
    id: 'findings-by-action-index',
    description: 'a layout finding on an offered action names it by index (`action: i`) instead of repeating selector and label; `minimum_px` once per summary',
    apply: (s) => {
      const actions = s['actions'] as Json[];
      const keyOf = (sel: unknown): string => JSON.stringify(sel);
      const index = new Map(actions.map((a, i) => [keyOf(a['selector']), i]));
      let minimum: unknown;
      const findings = (s['layout_findings'] as Json[]).map((f) => {
        const { selector, label, minimum_px, ...rest } = f;
        if (minimum_px !== undefined) minimum = minimum_px;
        const i = index.get(keyOf(selector));
        return i === undefined ? { ...rest, selector, ...(label ? { label } : {}) } : { ...rest, action: i };
      });
      return { ...s, layout_findings: findings, ...(minimum !== undefined ? { touch_minimum_px: minimum } : {}) };
    },
  },
  {
    id: 'counts-only-when-truncated',
    description: '`counts` sent only when `truncated` is true (otherwise they equal the array lengths)',
    apply: (s) => {
      if (s['truncated'] === true) return s;
      const { counts, ...rest } = s;
      void counts;
      return rest;
    },
  },
];

export function compactSummary(summary: ScreenSummary, upTo = COMPACT_STEPS.length): Json {
  let s = JSON.parse(JSON.stringify(summary)) as Json;
  for (const step of COMPACT_STEPS.slice(0, upTo)) s = step.apply(s);
  return s;
}
