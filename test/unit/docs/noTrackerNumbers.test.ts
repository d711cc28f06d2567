/**
 * People who cannot see our tracker read the README, the docs, the code and the tests: a section, a
 * comment or a test is named by what it is, never by the number of the issue that asked for it. This
 * test lists every file:line that still cites the tracker ("issue 13", "issues 8 and 12", "Issue 17 §4",
 * "(#13)" — a bare number; `owner/repo#13`, a public tracker, is fine — or "seed 002"), a section number of
 * the first specification, which the repository does not hold ("CONTRACT §4"), or a quirk by an old
 * tracker's row number ("row 12.3", "12.S4") instead of its id. The user docs also name no test ids.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';

interface Form {
  readonly name: string;
  readonly pattern: RegExp;
}

const ISSUE: Form = { name: 'issue number', pattern: /\bissues? #?\d+/i };
const BARE: Form = { name: 'bare #number', pattern: /(?:^|[\s([,;])#\d+\b/ };
const SEED: Form = { name: 'seed number', pattern: /\bseeds? \d+/i };
const SPEC: Form = { name: 'section of the first specification', pattern: /\bCONTRACT ?§ ?\d+/ };
const ROW: Form = { name: 'old quirk row', pattern: /\brows? 1[23]\.\d|(?<![\w.])12\.(?:S4|6b|[LSH])(?![\w.])/i };
const TEST_ID: Form = {
  name: 'test id',
  pattern: /\b(?:INV|QUIRK|FLOW|SEQ|REF|SCROLL|CONTRACT)-[A-Z]+(?:-[A-Z0-9]+)*\b/,
};

/** Prose: every form. */
const DOC_FORMS: readonly Form[] = [ISSUE, BARE, SEED, SPEC, ROW];
/** Code and tests: a bare #number is a colour or a fixture's text there, so it is left out. */
const CODE_FORMS: readonly Form[] = [ISSUE, SEED, SPEC, ROW];
/** What a user reads (the guide, the reference, the README) names no test either. */
const USER_FORMS: readonly Form[] = [...DOC_FORMS, TEST_ID];

/** Files below `dir` (relative to the repository, `/`-separated) whose name ends with one of `endings`. */
function below(dir: string, endings: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names
    .filter((name) => endings.some((ending) => name.endsWith(ending)) && !name.split(sep).includes('node_modules'))
    .map((name) => `${dir}/${name.split(sep).join('/')}`)
    .sort();
}

const THIS_FILE = 'test/unit/docs/noTrackerNumbers.test.ts';
const CODE_ENDINGS = ['.ts', '.mjs', '.cjs', '.js', '.json', '.md'];

function docFiles(): string[] {
  return ['README.md', 'CONTRIBUTING.md', ...below('docs', ['.md', '.svg'])];
}

function codeFiles(): string[] {
  return ['src', 'test', 'packages', 'bench', 'scripts']
    .flatMap((dir) => below(dir, CODE_ENDINGS))
    .filter((file) => file !== THIS_FILE && statSync(join(REPO_ROOT, file)).size < 2_000_000);
}

/** `file:line: form: text` for every line of `file` that matches one of `forms`. */
export function trackerCitations(file: string, text: string, forms: readonly Form[] = DOC_FORMS): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { name, pattern } of forms) {
      const match = pattern.exec(line);
      if (match)
        found.push(`${file}:${index + 1}: ${name}: …${line.slice(Math.max(0, match.index - 30), match.index + 40)}…`);
    }
  });
  return found;
}

const userFacing = (file: string): boolean =>
  file === 'README.md' || file.startsWith('docs/guide/') || file.startsWith('docs/reference/');

describe('README, docs, code and tests name things by what they are, not by tracker numbers', () => {
  it('the check finds each form it looks for', () => {
    const sample = [
      '## Issue 13: refs',
      'as issues 8 and 12 asked',
      'see (#13)',
      'seed 002 says',
      'appium/appium#22337 is public',
      'fill="#000"',
      'CONTRACT §4 says',
      'rows 12.4 and 12.5',
      'quirk 12.S4',
      'it takes 12.5 s',
      'the INV-OBS-1 row',
    ].join('\n');
    expect(trackerCitations('sample.md', sample, USER_FORMS).map((hit) => hit.split(':')[1])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '7',
      '8',
      '9',
      '11',
    ]);
    expect(trackerCitations('sample.ts', 'color: #333; // issue 4', CODE_FORMS)).toHaveLength(1);
  });

  it.each(docFiles())('%s cites no issue, seed, spec section or old quirk row', (file) => {
    const forms = userFacing(file) ? USER_FORMS : DOC_FORMS;
    const hits = trackerCitations(file, readFileSync(join(REPO_ROOT, file), 'utf8'), forms);
    expect(hits, hits.join('\n')).toEqual([]);
  });

  it('no file of the code or the tests cites one', () => {
    const files = codeFiles();
    expect(files.length).toBeGreaterThan(300);
    const hits = files.flatMap((file) =>
      trackerCitations(file, readFileSync(join(REPO_ROOT, file), 'utf8'), CODE_FORMS),
    );
    expect(hits, hits.join('\n')).toEqual([]);
  });
});
