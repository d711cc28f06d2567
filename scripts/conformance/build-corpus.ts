/**
 * Builds the conformance corpus from the public Appium logs listed in
 * test/fixtures/uia2-exchange-sources.json, each read at its listed commit:
 *
 *   npx tsx scripts/conformance/build-corpus.ts --clones DIR [--out DIR]
 *
 * DIR holds a git clone of each listed repository, named `owner+name` (a bare `owner+name/repo` or
 * a work tree `owner+name/repo/.git` is found too). The corpus goes to --out, else to
 * ANDROID_MCP_UIA2_CORPUS, else to ../shared/uia2-exchanges. A clone without the listed commit, or
 * a log that no longer yields the listed number of exchanges, stops the build with a message.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { corpusDir, listedSources, type CorpusFile } from './corpus.js';
import { extractExchanges } from './extract.js';

function gitDirOf(clones: string, repository: string): string | null {
  const base = join(clones, repository.replace('/', '+'));
  for (const candidate of [join(base, 'repo', '.git'), join(base, 'repo'), join(base, '.git'), base]) {
    if (existsSync(join(candidate, 'HEAD'))) return candidate;
  }
  return null;
}

function main(argv: readonly string[]): void {
  const flag = (name: string): string | undefined => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const clones = flag('clones');
  if (!clones) {
    process.stderr.write(
      'usage: build-corpus.ts --clones DIR [--out DIR]  (DIR holds owner+name git clones of the listed sources)\n',
    );
    process.exit(2);
  }
  const out = resolve(flag('out') ?? corpusDir());
  mkdirSync(out, { recursive: true });
  let total = 0;
  for (const source of listedSources()) {
    const gitDir = gitDirOf(clones, source.repository);
    if (!gitDir) throw new Error(`no clone of ${source.repository} under ${clones}`);
    const log = execFileSync('git', ['--git-dir', gitDir, 'show', `${source.commit}:${source.path}`], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const exchanges = extractExchanges(log);
    if (exchanges.length !== source.exchanges)
      throw new Error(
        `${source.repository} ${source.path}: ${exchanges.length} exchanges, the list says ${source.exchanges}`,
      );
    const corpus: CorpusFile = {
      source: { repository: source.repository, path: source.path, commit: source.commit, redactions: 'none' },
      exchanges,
    };
    writeFileSync(join(out, source.file), `${JSON.stringify(corpus, null, 1)}\n`);
    total += exchanges.length;
  }
  process.stderr.write(`build-corpus: ${total} exchanges from ${listedSources().length} logs into ${out}\n`);
}

main(process.argv.slice(2));
