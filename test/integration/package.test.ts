/**
 * The package as a user gets it. `npm pack` runs on a copy of the sources alone (no dist/, no
 * artifacts, like a fresh clone; node_modules linked so the `prepack` build finds TypeScript),
 * or, under `npm test`, that copy plus the dist/ `npm test` has just built from this checkout,
 * packed with --ignore-scripts (builtByThisNpmTest; the nightly workflow runs this file alone, with
 * its prepack). The tarball is installed into an empty folder (`npm install` of the file, dependencies from
 * the npm cache or the registry, their install scripts off: none is needed), and the
 * installed bin is run as its own executable: `doctor`, and one MCP exchange over stdio.
 *
 * Processes: npm and the doctor are tracked by pid (a watchdog ends them if this worker dies);
 * the MCP server exits when its stdin closes, which also happens when this worker dies; the
 * doctor's managed Appium watches its own parent. Nothing is left on the machine.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/mcp/tools/index.js';
import { REPO_ROOT } from '../support/appium.js';
import { doctorScratch, type DoctorScratch } from '../support/doctorRun.js';
import { awaitExitOrKill, trackChild } from '../support/processes.js';

/** Top-level entries of the checkout that a fresh clone does not have (or that npm never packs). */
const NOT_IN_A_CLONE = new Set(['node_modules', 'dist', 'artifacts', 'coverage', '.git']);
const PACKAGE_NAME = 'android-mcp-harness';
const NPM_TIMEOUT_MS = 240_000;
/** What `prepack` runs: dist/ removed, then the build (package.json). */
const PREPACK = `node -e "require('node:fs').rmSync('dist', { recursive: true, force: true })" && npm run build`;

/**
 * True under `npm test`, whose script builds this checkout (`npm run build && vitest run`) before
 * any file runs: dist/ is then the output of the very build `prepack` runs, from these sources, in
 * a dist/ that held nothing else on a fresh clone (CI). The copy then takes that dist/ and packs
 * with --ignore-scripts instead of building a second time. Run alone
 * (`npx vitest run` of this file), the copy has no dist/ and `prepack` builds it, as before.
 */
function builtByThisNpmTest(): boolean {
  const dist = path.join(REPO_ROOT, 'dist');
  if (
    process.env.npm_lifecycle_event !== 'test' ||
    !/^npm run build && /.test(process.env.npm_lifecycle_script ?? '') ||
    process.env.npm_package_json !== path.join(REPO_ROOT, 'package.json') ||
    !existsSync(path.join(dist, 'index.js'))
  )
    return false;
  // A checkout's dist/ may keep the output of a source since removed (the build never empties it,
  // prepack does): such a file would be packed, so that dist/ is not the one prepack makes.
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .every((f) => existsSync(path.join(REPO_ROOT, 'src', f.replace(/\.js$/, '.ts'))));
}

interface PackedFile {
  readonly path: string;
  readonly size: number;
}
interface PackResult {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
  readonly files: readonly PackedFile[];
}

function npmVersion(): string | null {
  try {
    return execFileSync('npm', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    }).trim();
  } catch {
    return null;
  }
}

/** The caller's environment without what an enclosing `npm test` says about this checkout. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/.test(key) || ['npm_config_local_prefix', 'npm_command', 'INIT_CWD'].includes(key))
      continue;
    env[key] = value;
  }
  return env;
}

function runNpm(args: readonly string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'npm',
      [...args],
      { cwd, env: npmEnv(), timeout: NPM_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`npm ${args.join(' ')} failed in ${cwd}: ${error.message}\n${String(stderr).slice(-4000)}`));
        else resolve({ stdout: String(stdout), stderr: String(stderr) });
      },
    );
    trackChild(child);
  });
}

function seconds(sinceMs: number): string {
  return `${((Date.now() - sinceMs) / 1000).toFixed(1)} s`;
}

/** Relative links of a markdown file (`[x](target)`), without their #anchor; URLs left out. */
function relativeLinks(markdown: string): string[] {
  const targets: string[] = [];
  for (const match of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (match[1] ?? '').split('#')[0] ?? '';
    if (target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target)) targets.push(target);
  }
  return targets;
}

const NPM = npmVersion();
if (NPM === null)
  process.stderr.write(
    '[skip] the packed tarball: npm is not on PATH, so the package cannot be packed and installed here.\n',
  );

describe.skipIf(NPM === null)(`the packed tarball (npm ${NPM ?? 'absent'})`, () => {
  let scratch: string;
  let packed: PackResult;
  let installed: string;
  let installedBin: string;
  let nodeOnlyPath: string;
  let doctor: DoctorScratch;

  beforeAll(
    async () => {
      scratch = mkdtempSync(path.join(os.tmpdir(), 'amh-package-it-'));
      const sources = path.join(scratch, 'sources');
      cpSync(REPO_ROOT, sources, {
        recursive: true,
        filter: (from) => !(path.dirname(from) === REPO_ROOT && NOT_IN_A_CLONE.has(path.basename(from))),
      });
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(sources, 'node_modules'), 'dir');
      // The skipped build is the one prepack runs: a prepack that did more would need its own run here.
      const scripts = (
        JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
          scripts: Record<string, string>;
        }
      ).scripts;
      expect(scripts.prepack).toBe(PREPACK);
      const prebuilt = builtByThisNpmTest();
      if (prebuilt) cpSync(path.join(REPO_ROOT, 'dist'), path.join(sources, 'dist'), { recursive: true });

      let started = Date.now();
      const pack = await runNpm(
        ['pack', '--json', '--pack-destination', scratch, ...(prebuilt ? ['--ignore-scripts'] : [])],
        sources,
      );
      const results = JSON.parse(pack.stdout) as PackResult[];
      if (!results[0]) throw new Error(`npm pack printed no result:\n${pack.stdout}`);
      packed = results[0];
      process.stderr.write(
        `[package] npm pack (${prebuilt ? "npm test's build of this checkout, no prepack" : 'prepack build included'}): ${seconds(started)}, ${packed.entryCount} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked\n`,
      );

      // An empty folder with a package.json of its own, so npm installs here and not in a parent folder.
      installed = path.join(scratch, 'consumer');
      mkdirSync(installed);
      writeFileSync(
        path.join(installed, 'package.json'),
        `${JSON.stringify({ name: 'amh-package-consumer', private: true }, null, 2)}\n`,
      );
      started = Date.now();
      await runNpm(
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          path.join(scratch, packed.filename),
        ],
        installed,
      );
      process.stderr.write(`[package] npm install of the tarball: ${seconds(started)}\n`);
      installedBin = path.join(installed, 'node_modules', '.bin', PACKAGE_NAME);

      // PATH holds node and nothing else: no adb (so no adb server can be started), no npx.
      nodeOnlyPath = path.join(scratch, 'node-only-bin');
      mkdirSync(nodeOnlyPath);
      symlinkSync(process.execPath, path.join(nodeOnlyPath, 'node'));
      doctor = doctorScratch({ bin: installedBin });
    },
    2 * NPM_TIMEOUT_MS + 60_000,
  );

  afterAll(() => {
    doctor?.remove();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('ships the built bin, the linked docs, README and LICENSE, and no virtual device, demo, tests, benchmarks, sources or maps', () => {
    const paths = packed.files.map((f) => f.path);
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/index.js',
      'dist/doctor/cli.js',
      'dist/flow/cli.js',
      'docs/flows/example.json',
    ]) {
      expect(paths, needed).toContain(needed);
    }
    const outside = paths.filter(
      (p) =>
        !/^(dist\/.+\.js|docs\/(guide|reference)\/[^/]+\.(md|png)|docs\/flows\/[^/]+\.json|skills\/android\/SKILL\.md|package\.json|README\.md|LICENSE)$/.test(
          p,
        ),
    );
    expect(outside, 'files outside what runs and what the README links').toEqual([]);
    expect(paths.filter((p) => /^(test|bench|src|scripts)\/|\.map$|\.ts$/.test(p))).toEqual([]);
    // The internals (virtual device, quirks, verification, performance) are for who works on the checkout.
    expect(paths.filter((p) => p.startsWith('docs/internals/'))).toEqual([]);
    expect(paths).toContain('docs/reference/contract.md');
    expect(paths).toContain('docs/guide/usage.md');
    // The double is its own package (packages/virtual-device) and the demo a checkout's script.
    expect(paths.filter((p) => /^dist\/(virtual-device|demo)\//.test(p))).toEqual([]);
    // Every compiled module of src/ but the demo is there: nothing the bin imports can be missing.
    const builtFromSrc = readdirSync(path.join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.startsWith(`demo${path.sep}`))
      .map((f) => `dist/${f.split(path.sep).join('/').replace(/\.ts$/, '.js')}`);
    expect(builtFromSrc.length).toBeGreaterThan(50);
    expect(builtFromSrc.filter((f) => !paths.includes(f))).toEqual([]);
  });

  it('every relative link of the shipped README and docs points at a file inside the tarball (the README may also point at the checkout-only internals and CONTRIBUTING.md)', () => {
    const paths = new Set(packed.files.map((f) => f.path));
    const root = path.join(installed, 'node_modules', PACKAGE_NAME);
    const broken: string[] = [];
    let checked = 0;
    for (const file of [...paths].filter((p) => p.endsWith('.md'))) {
      for (const link of relativeLinks(readFileSync(path.join(root, file), 'utf8'))) {
        checked += 1;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), link));
        // Who works on the project reads these in the checkout; the README names them as such.
        const checkoutOnly =
          file === 'README.md' &&
          /^(docs\/internals\/|CONTRIBUTING\.md$)/.test(target) &&
          existsSync(path.join(REPO_ROOT, target));
        if (!paths.has(target) && !checkoutOnly) broken.push(`${file} → ${link}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  it('installs none of the virtual device: no canvas, fonts or xpath in the install, and `virtual-device` says how to get it', () => {
    const installedPkg = JSON.parse(
      readFileSync(path.join(installed, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string> };
    const deviceOnly = ['@napi-rs/canvas', '@expo-google-fonts/roboto', 'fontkitten', 'xpath', '@xmldom/xmldom'];
    expect(Object.keys(installedPkg.dependencies).filter((d) => deviceOnly.includes(d))).toEqual([]);
    // xpath and @xmldom/xmldom still arrive through Appium's own dependencies; these three only through the double.
    const nativeAndFonts = ['@napi-rs/canvas', '@expo-google-fonts/roboto', 'fontkitten'];
    expect(nativeAndFonts.filter((d) => existsSync(path.join(installed, 'node_modules', d)))).toEqual([]);
    const run = spawnSync(process.execPath, [installedBin, 'virtual-device', '--port', '5555'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('npx -y android-mcp-virtual-device');
  });

  it('the installed bin runs doctor: every check line printed, Appium and its driver found and started from the install', async () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const run = await doctor.run(doctor.baseEnv({ PATH: nodeOnlyPath }));
    expect(run.stdout, run.stderr).toMatch(/^android-mcp-harness doctor$/m);
    expect(run.marks).toMatchObject({
      node: '[ok  ]',
      dependencies: '[ok  ]',
      config: '[ok  ]',
      evidence: '[ok  ]',
      adb: '[MISS]',
      device: '[--  ]',
      android: '[--  ]',
      appium: '[ok  ]',
    });
    expect(run.stdout).toContain(
      `appium ${pkg.dependencies.appium}, appium-uiautomator2-driver ${pkg.dependencies['appium-uiautomator2-driver']}`,
    );
    expect(run.stdout).toMatch(
      /managed mode: Appium \S+ with uiautomator2 \S+ starts on 127\.0\.0\.1 \(stopped again\)/,
    );
    // adb is the only thing missing here, so it is the one blocking problem.
    expect(run.stdout).toMatch(/^1 blocking problem:$/m);
    expect(run.code).toBe(1);
  });

  it('the installed bin serves MCP over stdio: initialize, the twelve tools, and a structured status without adb', async () => {
    const transport = new StdioClientTransport({
      command: installedBin,
      args: [],
      // A closed Appium port: nothing is started or contacted.
      env: doctor.baseEnv({ PATH: nodeOnlyPath, APPIUM_URL: 'http://127.0.0.1:9' }) as Record<string, string>,
      cwd: doctor.dir,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', () => undefined);
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    let pid: number | null = null;
    try {
      await client.connect(transport);
      pid = transport.pid;
      expect(client.getServerVersion()).toMatchObject({ name: PACKAGE_NAME });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
      expect(tools).toHaveLength(12);
      const status = (await client.callTool({ name: 'emulator_get_status', arguments: {} })) as CallToolResult;
      expect(status.structuredContent).toMatchObject({
        ok: false,
        tool: 'emulator_get_status',
        error: { code: 'EMULATOR_UNAVAILABLE' },
      });
    } finally {
      await client.close();
      if (pid !== null) await awaitExitOrKill(pid, 6_000, 100);
    }
  });
});
