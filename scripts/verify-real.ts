/**
 * `npm run verify:real`: everything this project can check on a real Android emulator, in one
 * command, into one folder a user can attach to a bug report. It needs an AVD the user started;
 * without one it stops within seconds (exit 2) and says what to do, before building anything.
 *
 *   1. preflight: adb found, ANDROID_UDID (default emulator-5554) listed as "device", booted,
 *      and not this project's virtual device;
 *   2. the real-device checks: each read-only command of the closed list, its raw output kept
 *      and read by the harness's own parsers (docs/internals/device-quirks.md describes what they expect);
 *   3. the oracle and the toolsets end to end (ANDROID_MCP_E2E_TARGET=emulator);
 *   4. the reference flows of docs/flows/ through `node dist/index.js flow`;
 *   5. report.md (+ report.json) and the evidence under the output folder.
 *
 * Exit 0 when every part passed, 1 when one failed, 2 when there was no device to verify.
 * Output: ANDROID_MCP_VERIFY_DIR, else artifacts/verify-real/<time>/.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { preflight } from './verifyReal/preflight.js';
import { PROBES } from './verifyReal/probes.js';

const ROOT = resolve(import.meta.dirname, '..');
/** The end-to-end files that run on a real emulator (rows needing fault injection skip themselves, and say so). */
const E2E_FILES = ['test/e2e/oracle.test.ts', 'test/e2e/toolsets.test.ts'];
const PROBE_TIMEOUT_MS = 60_000;

interface PartResult {
  readonly part: string;
  readonly passed: boolean;
  readonly lines: readonly string[];
}

function log(line: string): void {
  process.stderr.write(`verify:real: ${line}\n`);
}

/** Runs a child with inherited output (the user sees progress); resolves with its exit code. */
function runChild(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, [...args], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => done(127));
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

function runBinary(
  adb: string,
  args: readonly string[],
): Promise<{ stdout: Buffer; code: number | null; error: string | null }> {
  return new Promise((done) => {
    execFile(
      adb,
      [...args],
      { encoding: 'buffer', timeout: PROBE_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        const e = error as (NodeJS.ErrnoException & { code?: number | string }) | null;
        done({
          stdout: Buffer.from(stdout ?? []),
          code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
          error: e ? (e.message.split('\n')[0] ?? 'failed') : null,
        });
      },
    );
  });
}

async function realDeviceChecks(adb: string, serial: string, outDir: string): Promise<PartResult> {
  const dir = join(outDir, 'adb-outputs');
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  let passed = true;
  for (const probe of PROBES) {
    const result = await runBinary(adb, ['-s', serial, ...probe.argv]);
    const file = join(dir, `${probe.name}${probe.name === 'screencap' ? '.png' : '.txt'}`);
    writeFileSync(file, result.stdout);
    const read = result.error ? { ok: false as const, why: result.error } : probe.read(result.stdout);
    passed &&= read.ok;
    lines.push(
      `| \`adb ${probe.argv.join(' ')}\` | ${read.ok ? 'read' : '**not read**'} | ${read.ok ? `\`${JSON.stringify(read.facts).slice(0, 300)}\`` : read.why.replace(/\|/g, '\\|')} | \`${relative(outDir, file)}\` |`,
    );
  }
  return {
    part: 'Real-device checks (closed-list commands read by the harness parsers)',
    passed,
    lines: ['| Command | Parsed | What the parser read | Raw output |', '|---|---|---|---|', ...lines],
  };
}

interface VitestJson {
  readonly testResults?: readonly {
    readonly name: string;
    readonly assertionResults?: readonly {
      readonly fullName: string;
      readonly status: string;
      readonly failureMessages?: readonly string[];
    }[];
  }[];
}

async function endToEnd(serial: string, outDir: string): Promise<PartResult> {
  const jsonFile = join(outDir, 'e2e-results.json');
  const code = await runChild(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--project',
      'integration',
      ...E2E_FILES,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${jsonFile}`,
    ],
    {
      ...process.env,
      ANDROID_MCP_E2E_TARGET: 'emulator',
      ANDROID_UDID: serial,
      ANDROID_MCP_E2E_EVIDENCE_DIR: join(outDir, 'evidence', 'e2e'),
    },
  );
  const lines = ['| Test | Result |', '|---|---|'];
  if (existsSync(jsonFile)) {
    const parsed = JSON.parse(readFileSync(jsonFile, 'utf8')) as VitestJson;
    for (const file of parsed.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        const failure = (t.failureMessages ?? [])[0]?.split('\n')[0]?.slice(0, 240).replace(/\|/g, '\\|') ?? '';
        lines.push(`| ${t.fullName.replace(/\|/g, '\\|')} | ${t.status}${failure ? `: ${failure}` : ''} |`);
      }
    }
  } else lines.push(`| (vitest wrote no results; exit ${code}) | failed |`);
  return {
    part: 'End to end: the oracle and the toolsets (ANDROID_MCP_E2E_TARGET=emulator)',
    passed: code === 0,
    lines,
  };
}

async function referenceFlows(serial: string, outDir: string): Promise<PartResult> {
  const flowsDir = join(ROOT, 'docs', 'flows');
  const files = readdirSync(flowsDir)
    .filter((f) => f.endsWith('.json') && f !== 'template.json')
    .sort();
  const lines = ['| Flow | Result | Report |', '|---|---|---|'];
  let passed = true;
  mkdirSync(join(outDir, 'flows'), { recursive: true });
  for (const f of files) {
    const report = join(outDir, 'flows', f);
    const code = await runChild(
      process.execPath,
      [join(ROOT, 'dist/index.js'), 'flow', join(flowsDir, f), '--report', report],
      {
        ...process.env,
        ANDROID_UDID: serial,
        ANDROID_MCP_ARTIFACTS_DIR: join(outDir, 'evidence', 'flows', f.replace(/\.json$/, '')),
      },
    );
    passed &&= code === 0;
    lines.push(
      `| \`docs/flows/${f}\` | ${code === 0 ? 'passed' : `failed (exit ${code})`} | \`${relative(outDir, report)}\` |`,
    );
  }
  return { part: 'Reference flows (docs/flows/)', passed, lines };
}

async function main(): Promise<number> {
  const started = new Date();
  const check = await preflight(process.env);
  if (!check.ok) {
    log(check.message);
    log('nothing was built or run; exit 2 (no device to verify).');
    return 2;
  }
  const outDir = resolve(
    process.env.ANDROID_MCP_VERIFY_DIR ||
      join(ROOT, 'artifacts', 'verify-real', started.toISOString().replace(/[:.]/g, '-')),
  );
  mkdirSync(outDir, { recursive: true });
  log(`${check.serial}: ${check.model}, Android ${check.androidRelease} (API ${check.sdk}); report in ${outDir}`);

  const parts: PartResult[] = [];
  parts.push(await realDeviceChecks(check.adbPath, check.serial, outDir));
  log('building dist/ (the end-to-end tests and flows run the built server)');
  const built = await runChild(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    process.env,
  );
  if (built !== 0)
    parts.push({
      part: 'Build',
      passed: false,
      lines: [`tsc exited with ${built}; the end-to-end tests and flows were not run.`],
    });
  else {
    parts.push(await endToEnd(check.serial, outDir));
    parts.push(await referenceFlows(check.serial, outDir));
  }

  const passed = parts.every((p) => p.passed);
  const report = [
    `# verify:real report: ${passed ? 'PASSED' : 'FAILED'}`,
    '',
    `- Device: \`${check.serial}\`, ${check.model}, Android ${check.androidRelease} (API ${check.sdk})`,
    `- Started: ${started.toISOString()}, finished: ${new Date().toISOString()}`,
    `- Harness: ${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}, Node ${process.version}, ${process.platform}`,
    '',
    '| Part | Result |',
    '|---|---|',
    ...parts.map((p) => `| ${p.part} | ${p.passed ? 'passed' : '**failed**'} |`),
    '',
    ...parts.flatMap((p) => [`## ${p.part}`, '', ...p.lines, '']),
    "Evidence (screenshots, the device's raw outputs, flow reports) is in the folders named above, next to this file.",
    '',
  ].join('\n');
  writeFileSync(join(outDir, 'report.md'), report);
  writeFileSync(join(outDir, 'report.json'), `${JSON.stringify({ passed, device: check, parts }, null, 2)}\n`);
  log(`${passed ? 'passed' : 'FAILED'}: ${join(outDir, 'report.md')}`);
  return passed ? 0 : 1;
}

process.exitCode = await main();
