// @ts-check
/**
 * `npm run bundle`: the MCP Bundle (.mcpb) for Claude Desktop, built with the official `mcpb` CLI.
 *
 * A bundle carries its server's production dependencies (Claude Desktop runs `node` on the
 * unpacked folder and installs nothing), so the folder `mcpb pack` zips is laid out apart from the
 * checkout, whose node_modules holds the dev dependencies too:
 *   1. the files `npm pack` would publish (package.json "files": dist, docs, README, LICENSE), read
 *      from `npm pack --dry-run`, so the bundle and the tarball cannot drift apart;
 *   2. manifest.json (`mcpb validate` first);
 *   3. `npm ci --omit=dev` from package-lock.json (the exact versions the tests ran), install scripts off:
 *      none is needed, as for the tarball;
 *   4. `mcpb pack` into the output file.
 * The staging folder is a temp folder removed when the script ends, however it ends (SIGINT and
 * SIGTERM included). Run `npm run build` first (the npm script does).
 *
 * Plain JavaScript, so no TypeScript loader runs (and leaves its cache in the temp directory).
 *
 * Usage: node scripts/bundle.mjs [--out FILE.mcpb]
 * Default output: android-mcp-harness-<version>.mcpb in the checkout (git-ignored).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MCPB_CLI = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
const STEP_TIMEOUT_MS = 300_000;

/** @param {string} line */
function say(line) {
  process.stderr.write(`bundle: ${line}\n`);
}

/** The environment without what an enclosing `npm run` says about this checkout (it would steer the inner npm). */
/** @returns {NodeJS.ProcessEnv} */
function cleanEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package|lifecycle)_/.test(key) || ['npm_config_local_prefix', 'npm_command', 'INIT_CWD'].includes(key))
      continue;
    env[key] = value;
  }
  return env;
}

/**
 * @param {string} command
 * @param {readonly string[]} args
 * @param {string} cwd
 * @returns {Promise<string>}
 */
function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      { cwd, env: cleanEnv(), timeout: STEP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `${path.basename(command)} ${args.join(' ')} failed: ${error.message}\n${String(stdout).slice(-2000)}${String(stderr).slice(-4000)}`,
            ),
          );
        else resolve(String(stdout));
      },
    );
  });
}

/**
 * @param {readonly string[]} argv
 * @param {string} version
 */
function outputOf(argv, version) {
  const at = argv.indexOf('--out');
  if (at === -1) return path.join(ROOT, `android-mcp-harness-${version}.mcpb`);
  const value = argv[at + 1];
  if (!value || !value.endsWith('.mcpb')) throw new Error('--out takes a file name ending in .mcpb');
  return path.resolve(value);
}

/** @param {readonly string[]} argv */
async function main(argv) {
  /** @type {{ version: string }} */
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  /** @type {{ version: string }} */
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8'));
  if (manifest.version !== pkg.version)
    throw new Error(`manifest.json says version ${manifest.version}, package.json ${pkg.version}: make them equal.`);
  if (!existsSync(path.join(ROOT, 'dist', 'index.js')))
    throw new Error('dist/index.js is missing: run `npm run build` first (`npm run bundle` does).');
  const output = outputOf(argv, pkg.version);

  say('mcpb validate manifest.json');
  await run(process.execPath, [MCPB_CLI, 'validate', path.join(ROOT, 'manifest.json')], ROOT);

  const staging = mkdtempSync(path.join(os.tmpdir(), 'amh-bundle-'));
  const remove = () => rmSync(staging, { recursive: true, force: true });
  /** @param {NodeJS.Signals} signal */
  const onSignal = (signal) => {
    remove();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    /** @type {{ files: { path: string }[] }[]} */
    const listed = JSON.parse(await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT));
    const files = listed[0]?.files.map((f) => f.path) ?? [];
    if (!files.includes('dist/index.js')) throw new Error('npm pack --dry-run lists no dist/index.js');
    for (const file of [...files, 'package-lock.json', 'manifest.json']) {
      mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      copyFileSync(path.join(ROOT, file), path.join(staging, file));
    }
    say(`${files.length} files of the package; npm ci --omit=dev`);
    await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], staging);
    say(`mcpb pack → ${output}`);
    mkdirSync(path.dirname(output), { recursive: true });
    const packed = await run(process.execPath, [MCPB_CLI, 'pack', staging, output], ROOT);
    const size = /package size: (.+)/.exec(packed)?.[1] ?? '?';
    const count = /total files: (\d+)/.exec(packed)?.[1] ?? '?';
    say(`done: ${count} files, ${size}`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    remove();
  }
}

main(process.argv.slice(2)).catch((error) => {
  say(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
