/**
 * docs/internals/performance.md holds no measured figure the bench did not write: every table on the
 * page is inside its bench block, and `--write-docs` replaces exactly that block.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCH_BLOCK_BEGIN, BENCH_BLOCK_END, withBenchBlock } from '../../../bench/report/performanceDoc.js';

const PAGE = join(__dirname, '..', '..', '..', 'docs', 'internals', 'performance.md');

describe('performance.md', () => {
  it('has every table inside the block the bench writes', () => {
    const page = readFileSync(PAGE, 'utf8');
    const begin = page.indexOf(BENCH_BLOCK_BEGIN);
    const end = page.indexOf(BENCH_BLOCK_END);
    expect(begin).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(begin);
    const outside = `${page.slice(0, begin)}\n${page.slice(end)}`;
    expect(outside.split('\n').filter((line) => /^\s*\|/.test(line))).toEqual([]);
  });

  it('--write-docs replaces the block, its title dropped and its headings one level down', () => {
    const page = `# P\n\nintro\n\n${BENCH_BLOCK_BEGIN}\n\nold | table\n\n${BENCH_BLOCK_END}\n\nafter\n`;
    const report =
      '# Benchmark results (latest run)\n\nMeasured today.\n\n## Targets\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const written = withBenchBlock(page, report);
    expect(written).toBe(
      `# P\n\nintro\n\n${BENCH_BLOCK_BEGIN}\n\nMeasured today.\n\n### Targets\n| a | b |\n|---|---|\n| 1 | 2 |\n\n${BENCH_BLOCK_END}\n\nafter\n`,
    );
    // Writing again gives the same page: nothing accumulates between runs.
    expect(withBenchBlock(written, report)).toBe(written);
  });

  it('refuses a page without the block rather than writing figures elsewhere', () => {
    expect(() => withBenchBlock('# P\n', '# R\n')).toThrow(/no bench block/);
  });
});
