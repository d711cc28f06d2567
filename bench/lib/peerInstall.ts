/**
 * The published peers, installed from the npm registry into a scratch folder outside the
 * repository (os.tmpdir()/android-mcp-bench-peers), so a fresh clone needs nothing by hand and
 * the repository's own dependencies stay untouched.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const PEERS_DIR = process.env['BENCH_PEERS_DIR'] ?? join(tmpdir(), 'android-mcp-bench-peers');

export interface PeerSpec {
  readonly label: string;
  /** npm package name and the version the bench was written against. */
  readonly pkg: string;
  readonly version: string;
  /** Extra environment for a fair, default start (no device attached either way). */
  readonly env?: Record<string, string>;
}

export const PEERS: readonly PeerSpec[] = [
  { label: 'mobile-mcp', pkg: '@mobilenext/mobile-mcp', version: '1.0.4' },
  { label: 'appium-mcp', pkg: 'appium-mcp', version: 'latest' },
];

export type PeerInstall =
  | { readonly ok: true; readonly spec: PeerSpec; readonly version: string; readonly bin: string }
  | { readonly ok: false; readonly spec: PeerSpec; readonly reason: string };

function binOf(pkgDir: string): string | null {
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
    version: string;
  };
  const bin =
    typeof manifest.bin === 'string' ? manifest.bin : manifest.bin ? Object.values(manifest.bin)[0] : undefined;
  return bin ? join(pkgDir, bin) : null;
}

/** Installs one peer (or reuses an install of the same version) and finds its bin. */
export async function installPeer(spec: PeerSpec): Promise<PeerInstall> {
  const dir = join(PEERS_DIR, spec.label);
  const pkgDir = join(dir, 'node_modules', ...spec.pkg.split('/'));
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json')))
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `bench-peer-${spec.label}`, private: true }));
    const installed = existsSync(join(pkgDir, 'package.json'))
      ? (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version
      : null;
    if (installed === null || (spec.version !== 'latest' && installed !== spec.version)) {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      await run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', `${spec.pkg}@${spec.version}`], {
        cwd: dir,
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      });
    }
    const bin = binOf(pkgDir);
    if (!bin || !existsSync(bin)) return { ok: false, spec, reason: `installed, but no bin found in ${spec.pkg}` };
    const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
    return { ok: true, spec, version, bin };
  } catch (err) {
    const e = err as { stderr?: string; message?: string };
    const detail =
      (e.stderr || e.message || String(err)).split('\n').find((l) => /ERR|error|404/i.test(l)) ?? e.message ?? '';
    return {
      ok: false,
      spec,
      reason: `npm install ${spec.pkg}@${spec.version} failed: ${detail.trim().slice(0, 200)}`,
    };
  }
}

export function peerPackageDir(install: PeerInstall & { ok: true }): string {
  let d = dirname(install.bin);
  while (!existsSync(join(d, 'package.json'))) d = dirname(d);
  return d;
}
