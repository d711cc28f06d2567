/**
 * docs/internals/performance.md's figures are the bench's own: `npm run bench -- --write-docs`
 * replaces the block between these two markers with the run's report (bench/results/latest.md,
 * its headings one level down) and copies the run's chart beside the page. Nothing outside the
 * block holds a measured figure (test/unit/docs/performanceDoc.test.ts checks that no table does).
 */
export const BENCH_BLOCK_BEGIN =
  '<!-- bench:begin (written by `npm run bench -- --write-docs`; edits here are overwritten) -->';
export const BENCH_BLOCK_END = '<!-- bench:end -->';

/** The page with its bench block replaced by `report` (latest.md); throws when the markers are missing. */
export function withBenchBlock(page: string, report: string): string {
  const begin = page.indexOf(BENCH_BLOCK_BEGIN);
  const end = page.indexOf(BENCH_BLOCK_END);
  if (begin < 0 || end < begin)
    throw new Error('docs/internals/performance.md has no bench block (its begin and end markers)');
  const body = report
    .split('\n')
    // The report's title is the page's section; its sections become subsections.
    .filter((line, i) => !(i === 0 && line.startsWith('# ')))
    .map((line) => (/^#{1,5} /.test(line) ? `#${line}` : line))
    .join('\n')
    .trim();
  return `${page.slice(0, begin + BENCH_BLOCK_BEGIN.length)}\n\n${body}\n\n${page.slice(end)}`;
}
