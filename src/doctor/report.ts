/** The doctor's result rows and the text the CLI prints from them. */

export type CheckStatus = 'ok' | 'miss' | 'advisory' | 'skipped';

export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly summary: string;
  /** What to do; shown for blocking checks (status 'miss') and as advice for advisory ones. */
  readonly remedy?: string;
}

/** The text the CLI prints: one line per check, then one remedy line per blocking check. */
export function formatReport(results: readonly CheckResult[]): { lines: string[]; blocking: number } {
  const marker: Record<CheckStatus, string> = { ok: '[ok  ]', miss: '[MISS]', advisory: '[--  ]', skipped: '[--  ]' };
  const width = Math.max(...results.map((r) => r.name.length));
  const lines = results.map((r) => `${marker[r.status]} ${r.name.padEnd(width)}  ${r.summary}`);
  const blockers = results.filter((r) => r.status === 'miss');
  if (blockers.length > 0) {
    lines.push('', `${blockers.length} blocking problem${blockers.length === 1 ? '' : 's'}:`);
    for (const r of blockers) lines.push(`  ${r.name}: ${r.remedy ?? 'see above.'}`);
  } else {
    lines.push('', 'Everything a real run needs is in place.');
  }
  const advice = results.filter((r) => r.status === 'advisory' && r.remedy);
  for (const r of advice) lines.push(`  (advice) ${r.name}: ${r.remedy}`);
  return { lines, blocking: blockers.length };
}
