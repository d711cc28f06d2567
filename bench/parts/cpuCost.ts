/**
 * Part 2: the harness's own CPU cost per dump: parse + summarise (the layout audit runs inside
 * summariseScreen) + serialise the envelope, as ui_get_tree does after the dump arrives.
 * Each file: warm-up runs, then ≥ 50 timed runs; the median is reported against the dump's size.
 */
import { readFileSync } from 'node:fs';
import { contextFor, envelopeFor, type DomainApi } from '../lib/domain.js';
import { listFixtures } from '../lib/paths.js';
import { linearFit, median, p90, round } from '../lib/stats.js';

export interface CpuFile {
  readonly file: string;
  readonly bytes: number;
  readonly nodes: number;
  readonly parse_ms: number;
  readonly summarise_ms: number;
  readonly serialise_ms: number;
  readonly total_ms: number;
  readonly total_p90_ms: number;
}

export interface CpuResult {
  readonly status: 'measured' | 'skipped';
  readonly reason?: string;
  readonly runs: number;
  readonly warmup: number;
  readonly files: CpuFile[];
  readonly largest?: CpuFile;
  /** total_ms ≈ intercept + slope × KB */
  readonly fit?: { intercept_ms: number; ms_per_100kb: number };
  readonly errors: { file: string; error: string }[];
}

export function runCpuCost(domain: DomainApi, runs = 60, warmup = 15): CpuResult {
  const fixtures = listFixtures();
  if (fixtures === null)
    return { status: 'skipped', reason: '../shared/fixtures is absent', runs, warmup, files: [], errors: [] };
  const files: CpuFile[] = [];
  const errors: { file: string; error: string }[] = [];
  for (const f of fixtures) {
    try {
      const xml = readFileSync(f.path, 'utf8');
      const parse: number[] = [];
      const summarise: number[] = [];
      const serialise: number[] = [];
      const total: number[] = [];
      let nodes = 0;
      for (let i = 0; i < warmup + runs; i++) {
        const t0 = performance.now();
        const tree = domain.parseDump(xml);
        const t1 = performance.now();
        const summary = domain.summariseScreen(tree, contextFor(tree));
        const t2 = performance.now();
        const wire = JSON.stringify(envelopeFor(summary));
        const t3 = performance.now();
        nodes = tree.nodes.length;
        if (wire.length === 0) throw new Error('empty envelope');
        if (i >= warmup) {
          parse.push(t1 - t0);
          summarise.push(t2 - t1);
          serialise.push(t3 - t2);
          total.push(t3 - t0);
        }
      }
      files.push({
        file: f.name,
        bytes: Buffer.byteLength(xml, 'utf8'),
        nodes,
        parse_ms: round(median(parse), 3),
        summarise_ms: round(median(summarise), 3),
        serialise_ms: round(median(serialise), 3),
        total_ms: round(median(total), 3),
        total_p90_ms: round(p90(total), 3),
      });
    } catch (err) {
      errors.push({ file: f.name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  if (files.length === 0) return { status: 'measured', runs, warmup, files, errors };
  const largest = files.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const fit = linearFit(files.map((f) => [f.bytes / 1024, f.total_ms] as const));
  return {
    status: 'measured',
    runs,
    warmup,
    files,
    largest,
    fit: { intercept_ms: round(fit.intercept, 3), ms_per_100kb: round(fit.slope * 100, 3) },
    errors,
  };
}
