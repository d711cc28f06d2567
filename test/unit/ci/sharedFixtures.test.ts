/**
 * The shared fixtures' fetch (scripts/fixtures/fetch-shared.ts), offline: its reading of the SOURCES.md
 * lists, its plan, and a whole fetch from local bare repositories standing in for the public ones (this
 * machine does not reach GitHub; the GitHub workflow runs the same script against it). A source that is
 * gone must fail the fetch, by name.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FIXTURE_SOURCES_FILE,
  fetchShared,
  fixturesOfSharedFolder,
  listedFixtures,
} from '../../../scripts/fixtures/fetch-shared.js';
import {
  cloneCommands,
  fetchCommand,
  parseFixtureSources,
  parseScreenSources,
  planFetch,
  remoteUrl,
  showCommand,
} from '../../../scripts/fixtures/sharedSources.js';

const C1 = '0af5fb98065e5312eb8834ac1de1765b0f42e193';
const C2 = 'e75bf0c70d47b9973a5367e950a13c4fcc1a2510';

const FIXTURE_LIST = `# Real Android UI dumps

Prose that is not a list.

- \`dumps/reabLITA-Tablet__ui_dump.xml\` — repo \`garcezv/reabLITA-Tablet\`, path \`ui_dump.xml\`, commit \`${C1}\` — Tablet login form, rotation=3
- \`appium-source/App_Scrapper__summury_page.xml\` — repo \`devjayswal/App_Scrapper_and_Extracter\`, path \`summury_page.xml\`, commit \`${C2}\` — Zomato cart — 184KB
`;

const SCREEN_TABLE = `# Real Android screenshots paired with their UI dumps

| file | repository | xml path @ commit | image path @ commit | screen | size (px) | text on screen missing from the XML |
|---|---|---|---|---|---|---|
| \`3bud-ZC__mohamy_cases.{png,xml}\` | \`3bud-ZC/Mohamy\` | \`docs/qa/emulator/cases_dump.xml\` @ \`${C2}\` | \`docs/qa/emulator/cases.png\` @ same commit | Compose cases list | 1080x2400 | no |
| \`3bud-ZC__mohamy_pixel_app_drawer.{png,xml}\` | \`3bud-ZC/Mohamy\` | \`ui.xml\` @ \`${C1}\` | \`screenshot.png\` @ \`${C2}\` | Pixel launcher app drawer | 1080x2400 | no |

## OCR baseline on these pairs (per pair)

| pair | tree texts | found tess.js |
|---|---|---|
| 3bud-ZC__mohamy_cases | 31 | 0 |
`;

describe('reading the SOURCES.md lists', () => {
  it('reads each bullet of the fixtures list: file, repository, path, commit', () => {
    expect(parseFixtureSources(FIXTURE_LIST)).toEqual([
      {
        file: 'dumps/reabLITA-Tablet__ui_dump.xml',
        repository: 'garcezv/reabLITA-Tablet',
        path: 'ui_dump.xml',
        commit: C1,
      },
      {
        file: 'appium-source/App_Scrapper__summury_page.xml',
        repository: 'devjayswal/App_Scrapper_and_Extracter',
        path: 'summury_page.xml',
        commit: C2,
      },
    ]);
  });

  it('reads two files per row of the screens table, "same commit" the xml one; the OCR table is left alone', () => {
    expect(parseScreenSources(SCREEN_TABLE)).toEqual([
      {
        file: 'screens/3bud-ZC__mohamy_cases.xml',
        repository: '3bud-ZC/Mohamy',
        path: 'docs/qa/emulator/cases_dump.xml',
        commit: C2,
      },
      {
        file: 'screens/3bud-ZC__mohamy_cases.png',
        repository: '3bud-ZC/Mohamy',
        path: 'docs/qa/emulator/cases.png',
        commit: C2,
      },
      {
        file: 'screens/3bud-ZC__mohamy_pixel_app_drawer.xml',
        repository: '3bud-ZC/Mohamy',
        path: 'ui.xml',
        commit: C1,
      },
      {
        file: 'screens/3bud-ZC__mohamy_pixel_app_drawer.png',
        repository: '3bud-ZC/Mohamy',
        path: 'screenshot.png',
        commit: C2,
      },
    ]);
  });

  it('stops at a bullet or row it cannot read, naming the line, rather than fetching less than is listed', () => {
    expect(() => parseFixtureSources(`${FIXTURE_LIST}- \`dumps/x.xml\` — repo \`a/b\`, commit \`${C1}\`\n`)).toThrow(
      /^SOURCES\.md line 7: /,
    );
    expect(() => parseScreenSources(SCREEN_TABLE.replace(`@ \`${C1}\``, '@ HEAD'))).toThrow(
      /^screens\/SOURCES\.md line 6: /,
    );
  });

  it('refuses what must not reach git or the file system: a short commit, a path out of its folder, a traversal', () => {
    const line = (file: string, repo: string, path: string, commit: string): string =>
      `- \`${file}\` — repo \`${repo}\`, path \`${path}\`, commit \`${commit}\``;
    for (const bad of [
      line('dumps/x.xml', 'a/b', 'x.xml', 'abc123'),
      line('dumps/x.xml', 'a/b', '../x.xml', C1),
      line('dumps/x.xml', 'a/b', '/etc/passwd', C1),
      line('../x.xml', 'a/b', 'x.xml', C1),
      line('dumps/../../x.xml', 'a/b', 'x.xml', C1),
      line('dumps/x.xml', '--upload-pack=evil/b', 'x.xml', C1),
      line('dumps/x.xml', 'a/b', 'x.xml', C1.toUpperCase()),
    ]) {
      expect(() => parseFixtureSources(bad), bad).toThrow();
    }
  });
});

describe('the plan', () => {
  it('one clone per repository (named as build-corpus.ts looks it up), each commit fetched once, the logs included', () => {
    const fixtures = [...parseFixtureSources(FIXTURE_LIST), ...parseScreenSources(SCREEN_TABLE)];
    const plan = planFetch(fixtures, [
      { repository: '3bud-ZC/Mohamy', path: 'logs/appium.log', commit: C1 },
      { repository: 'x/logs-only', path: 'a.log', commit: C2 },
    ]);
    expect(plan.map((p) => [p.repository, p.cloneName, p.commits, p.files.length])).toEqual([
      ['3bud-ZC/Mohamy', '3bud-ZC+Mohamy', [C1, C2], 4],
      ['devjayswal/App_Scrapper_and_Extracter', 'devjayswal+App_Scrapper_and_Extracter', [C2], 1],
      ['garcezv/reabLITA-Tablet', 'garcezv+reabLITA-Tablet', [C1], 1],
      ['x/logs-only', 'x+logs-only', [C2], 0],
    ]);
  });

  it('git runs with fixed verbs and the validated values as their own arguments: shallow, blobs only when read', () => {
    expect(remoteUrl('https://github.com/', 'a/b')).toBe('https://github.com/a/b.git');
    expect(remoteUrl('file:///tmp/remotes', 'a/b')).toBe('file:///tmp/remotes/a/b.git');
    expect(cloneCommands('/c/a+b', 'https://github.com/a/b.git')).toContainEqual([
      '--git-dir',
      '/c/a+b',
      'config',
      'remote.origin.promisor',
      'true',
    ]);
    expect(fetchCommand('/c/a+b', C1)).toEqual([
      '--git-dir',
      '/c/a+b',
      'fetch',
      '--quiet',
      '--depth',
      '1',
      '--filter=blob:none',
      'origin',
      C1,
    ]);
    expect(showCommand('/c/a+b', { commit: C1, path: 'docs/x y.xml' })).toEqual([
      '--git-dir',
      '/c/a+b',
      'show',
      `${C1}:docs/x y.xml`,
    ]);
  });
});

const sharedRoot = resolve(import.meta.dirname, '../../../../shared');
describe.skipIf(!existsSync(join(sharedRoot, 'fixtures', 'SOURCES.md')))(
  'the committed list against ../shared (skipped when ../shared is absent)',
  () => {
    it('test/fixtures/shared-fixture-sources.json lists exactly what the SOURCES.md lists of ../shared list', () => {
      expect(listedFixtures()).toEqual(fixturesOfSharedFolder(sharedRoot));
    });
  },
);

it('the committed list is well formed and names each file once', () => {
  const files = listedFixtures(FIXTURE_SOURCES_FILE).map((f) => f.file);
  expect(files.length).toBeGreaterThan(40);
  expect(new Set(files).size).toBe(files.length);
});

describe('a whole fetch from local bare repositories standing in for the public ones', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'amh-fetch-shared-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    }).trim();

  /** A public repository: a work tree with two commits, served as a bare repository that allows filters. */
  function publish(repository: string, files: Record<string, Buffer>[]): string[] {
    const work = join(scratch, 'work', repository);
    mkdirSync(work, { recursive: true });
    git(work, 'init', '--quiet');
    const commits = files.map((snapshot) => {
      for (const [path, bytes] of Object.entries(snapshot)) {
        mkdirSync(join(work, path, '..'), { recursive: true });
        writeFileSync(join(work, path), bytes);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '--quiet', '-m', 'x');
      return git(work, 'rev-parse', 'HEAD');
    });
    const bare = join(scratch, 'remotes', `${repository}.git`);
    git(scratch, 'clone', '--quiet', '--bare', work, bare);
    git(bare, 'config', 'uploadpack.allowFilter', 'true');
    git(bare, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
    return commits;
  }

  it('writes each listed file byte for byte at its commit, and names every source that is gone', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const [first, second] = publish('owner/app', [
      { 'ui.xml': Buffer.from('<hierarchy>first</hierarchy>'), 'shots/s.png': png },
      { 'ui.xml': Buffer.from('<hierarchy>second</hierarchy>') },
    ]) as [string, string];
    const out = join(scratch, 'shared');
    const clones = join(scratch, 'clones');
    const missingCommit = 'f'.repeat(40);
    const outcome = fetchShared({
      out,
      clones,
      remote: `file://${join(scratch, 'remotes')}`,
      fixtures: [
        { file: 'dumps/first.xml', repository: 'owner/app', path: 'ui.xml', commit: first },
        { file: 'dumps/second.xml', repository: 'owner/app', path: 'ui.xml', commit: second },
        { file: 'screens/s.png', repository: 'owner/app', path: 'shots/s.png', commit: first },
        { file: 'dumps/gone-path.xml', repository: 'owner/app', path: 'nowhere.xml', commit: second },
        { file: 'dumps/gone-commit.xml', repository: 'owner/app', path: 'ui.xml', commit: missingCommit },
        { file: 'dumps/gone-repo.xml', repository: 'owner/deleted', path: 'ui.xml', commit: first },
      ],
      logs: [{ repository: 'owner/app', path: 'ui.xml', commit: second }],
    });
    expect(readFileSync(join(out, 'fixtures/dumps/first.xml'), 'utf8')).toBe('<hierarchy>first</hierarchy>');
    expect(readFileSync(join(out, 'fixtures/dumps/second.xml'), 'utf8')).toBe('<hierarchy>second</hierarchy>');
    expect(readFileSync(join(out, 'fixtures/screens/s.png')).equals(png)).toBe(true);
    expect(outcome.written).toBe(3);
    expect(existsSync(join(out, 'fixtures/dumps/gone-path.xml'))).toBe(false);
    expect(outcome.failures).toHaveLength(3);
    expect(outcome.failures[0]).toMatch(new RegExp(`^owner/app @ ${missingCommit}: `));
    expect(outcome.failures[1]).toMatch(
      new RegExp(`^owner/app @ ${second}: nowhere\\.xml \\(for dumps/gone-path\\.xml\\): `),
    );
    expect(outcome.failures[2]).toMatch(new RegExp(`^owner/deleted @ ${first}: `));
    // The clone build-corpus.ts reads the logs from: named owner+name, the log's commit there.
    expect(git(scratch, '--git-dir', join(clones, 'owner+app'), 'show', `${second}:ui.xml`)).toBe(
      '<hierarchy>second</hierarchy>',
    );
  });
});
