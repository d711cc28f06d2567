/**
 * The README names the Node versions on which the install is quiet: every package the lock file
 * installs accepts them (npm prints EBADENGINE for one that does not). The package itself (what
 * `npm install` of the tarball and the MCP Bundle install: the production dependencies) is quiet on
 * each named Node; the checkout (`npm ci`, with the development tools) is quiet on Node 22 and 24, and on
 * Node 20 warns only for the MCP Inspector and what it alone pulls in, as the README says.
 * Also: `npm pack` in the checkout leaves nothing git would list as untracked.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';

// semver has no types of its own; the one function used here, typed.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

interface LockedPackage {
  readonly version?: string;
  readonly dev?: boolean;
  readonly optional?: boolean;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
  readonly engines?: { readonly node?: string } | readonly string[];
}

const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

/** The oldest Node of each line the README names. */
const NAMED = ['20.20.2', '22.23.4', '24.22.1'] as const;
/** What the README says warns on Node 20 in the checkout: a development tool and what only it pulls in. */
const NODE_20_CHECKOUT_WARNINGS = ['@modelcontextprotocol/inspector', 'commander', 'undici'];

/** `name@version` of every package npm would install here and whose engines refuse `node`. */
function refusing(node: string, which: 'package' | 'checkout'): string[] {
  return Object.entries(lock.packages)
    .filter(([key]) => key !== '')
    .filter(([, p]) => which === 'checkout' || p.dev !== true)
    .filter(([, p]) => installsOnThisPlatform(p))
    .filter(([, p]) => {
      const range = Array.isArray(p.engines) ? undefined : (p.engines as { node?: string } | undefined)?.node;
      return range !== undefined && !semver.satisfies(node, range);
    })
    .map(([key, p]) => `${key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${p.version ?? '?'}`);
}

/** A platform binary npm skips on this OS and CPU warns about nothing here. */
function installsOnThisPlatform(p: LockedPackage): boolean {
  const fits = (list: readonly string[] | undefined, value: string): boolean =>
    list === undefined || list.some((item) => (item.startsWith('!') ? item.slice(1) !== value : item === value));
  return fits(p.os, process.platform) && fits(p.cpu, process.arch);
}

describe('a quiet install on every Node the README names', () => {
  it.each(NAMED)('the README names Node %s', (node) => {
    expect(readme).toContain(node);
  });

  it.each(NAMED)('the package (production dependencies) accepts Node %s', (node) => {
    expect(refusing(node, 'package')).toEqual([]);
  });

  it('the checkout accepts Node 22.23.4 and 24.22.1; on Node 20 only the MCP Inspector and its own packages warn, as the README says', () => {
    expect(refusing('22.23.4', 'checkout')).toEqual([]);
    expect(refusing('24.22.1', 'checkout')).toEqual([]);
    const warned = refusing('20.20.2', 'checkout').map((p) => p.slice(0, p.lastIndexOf('@')));
    expect([...new Set(warned)].sort()).toEqual([...NODE_20_CHECKOUT_WARNINGS].sort());
    expect(readme).toMatch(/On Node 20, `npm ci` warns `EBADENGINE` for the MCP Inspector/);
  });

  it('the check itself: a Node older than webdriverio accepts is refused for the package', () => {
    expect(refusing('20.19.0', 'package').some((p) => p.startsWith('webdriverio@'))).toBe(true);
  });
});

describe('npm pack in the checkout', () => {
  it('writes a tarball git ignores, so nothing is left untracked', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    // `git check-ignore` exits 0 when the path is ignored (1 when it is not).
    expect(() =>
      execFileSync('git', ['check-ignore', '-q', `${pkg.name}-${pkg.version}.tgz`], { cwd: REPO_ROOT }),
    ).not.toThrow();
  });
});
