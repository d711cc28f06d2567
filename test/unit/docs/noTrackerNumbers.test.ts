/**
 * The README and docs/ are read by people who cannot see our tracker: a section is named by what it
 * is, never by the number of the issue that asked for it. This test lists every file:line of
 * README.md and every .md and .svg file below docs/ that still cites the tracker: "issue 13", "issues 8 and 12",
 * "Issue 17 §4", "(#13)" (a bare number; `owner/repo#13`, a public tracker, is fine) or "seed 002".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';

/** Each form that points into our tracker, with what it is called in a failure. */
const TRACKER_FORMS: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'issue number', pattern: /\bissues? #?\d+/i },
  { name: 'bare #number', pattern: /(?:^|[\s([,;])#\d+\b/ },
  { name: 'seed number', pattern: /\bseeds? \d+/i },
];

function userFacingFiles(): string[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md') || name.endsWith('.svg'))
    .sort()
    .map((name) => `docs/${name.split(sep).join('/')}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/** `file:line: form: text` for every line of `file` that matches a tracker form. */
export function trackerCitations(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { name, pattern } of TRACKER_FORMS) {
      const match = pattern.exec(line);
      if (match)
        found.push(`${file}:${index + 1}: ${name}: …${line.slice(Math.max(0, match.index - 30), match.index + 40)}…`);
    }
  });
  return found;
}

describe('README.md and docs/ name sections by what they are, not by tracker numbers', () => {
  it('the check finds each form it looks for', () => {
    const sample = [
      '## Issue 13: refs',
      'as issues 8 and 12 asked',
      'see (#13)',
      'seed 002 says',
      'appium/appium#22337 is public',
      'fill="#000"',
    ].join('\n');
    expect(trackerCitations('sample.md', sample).map((hit) => hit.split(':')[1])).toEqual(['1', '2', '3', '4']);
  });

  it.each(userFacingFiles())('%s cites no issue, seed or bare #number of our tracker', (file) => {
    const hits = trackerCitations(file, readFileSync(join(REPO_ROOT, file), 'utf8'));
    expect(hits, hits.join('\n')).toEqual([]);
  });
});
