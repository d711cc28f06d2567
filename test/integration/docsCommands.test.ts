/**
 * Every command in the docs (README.md, CONTRIBUTING.md and every .md below docs/: the `sh` blocks) is either run here or
 * listed below with why it is not, so a docs edit is tested: a command that matches no rule fails
 * the first test, and the commands run are read from the markdown itself, not copied.
 *
 * One real `serve --http` (started as the docs start it: no ANDROID_MCP_HTTP_TOKEN, so it writes
 * its token file under HOME, which the commands read with `cat ~/.config/…`), one real Appium and
 * the virtual device on a private adb server. Each block's runnable commands run in order in one
 * bash (they share TOKEN, H, D, ID…), with only these rewrites, which name this machine's set-up:
 * the port 8765 becomes the server's, `emulator-5554` the virtual device's serial, and
 * `/absolute/path/to/android-mcp-harness` this checkout. A placeholder the docs ask the reader to
 * fill (`ID=3f1c…`, "the task_id above") is filled the way its own comment says.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { startHttpStack, type HttpStack } from '../support/httpStack.js';
import { trackChild } from '../support/processes.js';
import { ensureBuilt } from '../support/rawServer.js';
import type { ReliabilityStack } from '../support/reliabilityStack.js';

interface DocCommand {
  /** `README.md:141`: the file and the line the command starts on. */
  readonly where: string;
  /** The file: its blocks run in one shell, as a reader runs them one after the other (TOKEN from an earlier block). */
  readonly block: string;
  /** `docs/guide/usage.md:303`: the opening fence of the block it is in. */
  readonly fence: string;
  readonly text: string;
}

/** The `sh`/`bash` blocks' commands: continuation lines joined, comments and blank lines left out. */
function docCommands(): DocCommand[] {
  const files = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f.split(path.sep).join('/')}`),
  ];
  const commands: DocCommand[] = [];
  for (const file of files) {
    const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      const fence = /^\s*```(\w*)\s*$/.exec(lines[i] ?? '');
      if (!fence) continue;
      const shell = ['sh', 'bash', 'shell'].includes(fence[1] ?? '');
      const block = file;
      let j = i + 1;
      for (; j < lines.length && !/^\s*```/.test(lines[j] ?? ''); j += 1) {
        const text = (lines[j] ?? '').trim();
        if (!shell || text === '' || text.startsWith('#')) continue;
        let joined = text;
        const start = j;
        // A trailing backslash, or a single-quoted string (a JSON body) that goes on to the next line.
        // Quotes are counted without a trailing comment (`# the token file's path`).
        const open = (t: string): boolean =>
          t.endsWith('\\') || (t.replace(/\s#\s.*$/, '').match(/'/g)?.length ?? 0) % 2 === 1;
        while (open(joined) && j + 1 < lines.length && !/^\s*```/.test(lines[j + 1] ?? '')) {
          j += 1;
          joined = `${joined.endsWith('\\') ? joined.slice(0, -1).trimEnd() : joined} ${(lines[j] ?? '').trim()}`;
        }
        commands.push({ where: `${file}:${start + 1}`, block, fence: `${file}:${i + 1}`, text: joined });
      }
      i = j;
    }
  }
  return commands;
}

/** Commands this test runs against the real server, device and Appium. */
const RUN_HERE: readonly RegExp[] = [
  /^(TOKEN|H|ID)=/,
  /^curl /,
  /^node dist\/index\.js doctor\b/,
  /^node dist\/index\.js flow docs\/flows\/example\.json\b/,
];

/** Whole blocks that are not run, and why. */
const BLOCKS_NOT_HERE: readonly (readonly [RegExp, string])[] = [
  [
    /ANDROID_MCP_MODEL_PROVIDER=/,
    'a goal task needs a model provider and its API key; tasks.test.ts and goalModels.test.ts run goal tasks against scripted model servers',
  ],
];

/** Commands that are not run here, and why. Every command must match RUN_HERE or one of these. */
const NOT_HERE: readonly (readonly [RegExp, string])[] = [
  [
    /^android-mcp-harness serve --http(\s+#.*)?$/,
    'this is how the test starts its own server (node dist/index.js serve --http --port N, no token set)',
  ],
  [/^git clone /, 'CI itself runs on a fresh clone of the repository'],
  [/\bnpm run bundle\b/, 'bundle.test.ts runs the bundle script and starts the packed server'],
  [
    /^npm (ci|test)\b|^npm run (build|test:fast)\b/,
    'what .ci/run does (the test runner is already running); demo.test.ts runs `npm run demo`',
  ],
  [
    /^npm run (lint|format|format:check|typecheck)\b/,
    '.ci/run runs format:check and lint before the suites, and the build compiles; format rewrites the checkout, never in a test',
  ],
  [/^npm run (soak|bench|verify:real)\b/, 'long runs, or a real emulator (verify:real); not part of CI'],
  [
    /^npm run test:sweep\b/,
    'the full fixtures sweep: its own nightly workflow (.github/workflows/sweep.yml) runs it; CI runs the stratified sweep through npm test',
  ],
  [/^npm run conformance\b/, 'conformance.test.ts replays the same corpus in CI (it needs ../shared/uia2-exchanges)'],
  [
    /^(MUTATE_(TESTS|TSCONFIG)='[^']*' )*npm run mutate\b/,
    'hours of mutation testing on two cores: its own scheduled workflow (.github/workflows/mutation.yml) runs it',
  ],
  [
    /^npm run fixtures:fetch\b|^TSX_DISABLE_CACHE=1 node --import tsx scripts\/conformance\/build-corpus\.ts /,
    'fetches from GitHub, which this machine does not reach: the GitHub workflow runs both; sharedFixtures.test.ts fetches from local repositories',
  ],
  [
    /^npm install -g \.\/android-mcp-harness|^npx -y \.\/android-mcp-harness/,
    'package.test.ts packs the tarball, installs it and runs its bin (doctor and MCP over stdio)',
  ],
  [/^claude mcp add /, 'needs Claude Code, which is not installed here'],
  [
    /^mkdir -p ~\/\.claude\/skills\/android && cp /,
    "installs the agents' skill into the user's Claude Code folder; skill.test.ts checks the skill file itself",
  ],
  [/^emulator -avd /, 'needs the Android emulator and an AVD; the virtual device stands in for it here'],
  [
    /^java -jar selenium-server|^npx appium /,
    'a Selenium Grid or Appiums started by hand: seleniumGrid*.test.ts and remoteGrid.test.ts start them from the test',
  ],
  [/^docker /, 'Docker is not on this machine (docs/internals/docker.md)'],
  [
    /^node dist\/index\.js trace (view|export) artifacts\/traces\/<name>/,
    'needs a recorded run: trace.test.ts records one and runs trace view and both exports on it',
  ],
  [
    /^(ANDROID_MCP_E2E_\w+=\S+ )*(ANDROID_UDID=\S+ )?npx vitest /,
    'the test runner itself (the e2e suites run in CI through npm test)',
  ],
  [/^ANDROID_MCP_E2E_TARGET=emulator /, 'needs a real emulator (the e2e suite against an AVD)'],
  [
    /^node dist\/index\.js virtual-device\b/,
    'a device that runs until it is stopped: virtualDevice*.test.ts and noLitter.test.ts start this very command',
  ],
  [
    /^npx -y @modelcontextprotocol\/inspector --cli /,
    "the Inspector CLI starts its own stdio server with only the -e variables, so it cannot reach this test's private adb server; http.test.ts drives the Inspector CLI against serve --http",
  ],
  [/^ANDROID_MCP_MODEL_PROVIDER=/, 'needs a model provider and its API key'],
  [
    /^export (ANDROID_MCP_REMOTE|APPIUM_URL|ANDROID_UDID|ANDROID_MCP_APPIUM_CAPS)=/,
    'remote mode against a Grid or a device farm account: remoteMode.test.ts and remoteGrid.test.ts run it against a local Selenium Grid',
  ],
];

function classify(command: DocCommand, all: readonly DocCommand[]): 'run' | string | null {
  const skippedBlock = BLOCKS_NOT_HERE.find(([rule]) =>
    all.some((other) => other.fence === command.fence && rule.test(other.text)),
  );
  if (skippedBlock) return skippedBlock[1];
  if (RUN_HERE.some((rule) => rule.test(command.text))) return 'run';
  return NOT_HERE.find(([rule]) => rule.test(command.text))?.[1] ?? null;
}

interface BlockRun {
  readonly block: string;
  /** Each command's own stdout, in order. */
  readonly outputs: readonly { readonly command: DocCommand; readonly stdout: string }[];
  readonly stderr: string;
  readonly code: number;
}

const MARK = '@@amh-doc-command@@';
/** On stderr, before each command: its index and the clock in ms (where a block's time goes). */
const CLOCK = '@@amh-doc-clock@@';

/** The commands that took a second or more, slowest first, from the CLOCK lines (the last one runs to `endMs`). */
function slowCommands(stderr: string, inBlock: readonly DocCommand[], endMs: number): string[] {
  const starts = [...stderr.matchAll(new RegExp(`${CLOCK}(\\d+) (\\d+)\\n`, 'g'))].map((m) => ({
    index: Number(m[1]),
    at: Number(m[2]),
  }));
  return starts
    .map((start, i) => ({ where: inBlock[start.index]?.where ?? '?', ms: (starts[i + 1]?.at ?? endMs) - start.at }))
    .filter((c) => c.ms >= 1_000)
    .sort((a, b) => b.ms - a.ms)
    .map((c) => `${c.where} ${(c.ms / 1000).toFixed(1)} s`);
}

describeWithAdb('every command in the docs is run here or says why not', () => {
  const commands = docCommands();
  let http: HttpStack;
  let stack: ReliabilityStack;
  let scratch: string;
  let home: string;
  let work: string;
  let port: number;
  const runs = new Map<string, BlockRun>();

  /** The docs' command as it runs on this machine (see the file's comment). */
  function rewrite(text: string): string {
    return text
      .replaceAll('127.0.0.1:8765', `127.0.0.1:${port}`)
      .replaceAll('emulator-5554', stack.serial)
      .replaceAll('/absolute/path/to/android-mcp-harness', REPO_ROOT);
  }

  function runBlock(block: string, env: Record<string, string>): Promise<BlockRun> {
    const inBlock = commands.filter((c) => c.block === block && classify(c, commands) === 'run');
    const script: string[] = [];
    for (const [index, command] of inBlock.entries()) {
      script.push(`echo '${MARK}${index}'`, `echo "${CLOCK}${index} $(date +%s%3N)" >&2`);
      let text = rewrite(command.text);
      // "ID=3f1c…   # the task_id above (or: … | jq -r .data.task_id)": the command before it, piped as its comment says.
      if (/^ID=3f1c…/.test(command.text)) {
        const previous = inBlock[index - 1];
        if (!previous) throw new Error(`${command.where}: no command before the task id placeholder`);
        text = `ID=$(${rewrite(previous.text)} | jq -r .data.task_id)`;
        // "once passed or failed": the lines after it read a finished task.
        text += `\nuntil curl -s -H "$H" $S/task/$ID | jq -e '.data.state | test("passed|failed|cancelled")' >/dev/null; do sleep 1; done`;
      }
      script.push(text);
    }
    return new Promise((resolve) => {
      const child = execFile(
        'bash',
        ['-c', script.join('\n')],
        { cwd: work, env, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const parts = String(stdout).split(new RegExp(`${MARK}(\\d+)\\n`));
          const outputs = inBlock.map((command, index) => ({
            command,
            stdout: parts[parts.indexOf(String(index)) + 1] ?? '',
          }));
          const slow = slowCommands(String(stderr), inBlock, Date.now());
          if (slow.length > 0) process.stderr.write(`[docs] ${block}, the slow commands: ${slow.join(', ')}\n`);
          resolve({
            block,
            outputs,
            stderr: String(stderr).replace(new RegExp(`${CLOCK}\\d+ \\d+\\n`, 'g'), ''),
            code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          });
        },
      );
      trackChild(child);
    });
  }

  beforeAll(async () => {
    ensureBuilt();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'amh-docs-commands-'));
    home = path.join(scratch, 'home');
    work = path.join(scratch, 'work');
    mkdirSync(home);
    mkdirSync(work);
    // The docs' relative paths (docs/flows/example.json, dist/index.js) from a folder whose files (screen.png, artifacts/) are thrown away.
    symlinkSync(path.join(REPO_ROOT, 'docs'), path.join(work, 'docs'));
    symlinkSync(path.join(REPO_ROOT, 'dist'), path.join(work, 'dist'));
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(work, 'node_modules'));
    symlinkSync(path.join(REPO_ROOT, 'package.json'), path.join(work, 'package.json'));
    // A checkout has artifacts/ (its .gitkeep); the flow command writes its report there.
    mkdirSync(path.join(work, 'artifacts'));
    const stackStarted = Date.now();
    http = await startHttpStack({
      tag: 'docs',
      env: { HOME: home, ANDROID_MCP_ACTION_TIMEOUT: '20', ANDROID_MCP_CONNECT_TIMEOUT: '60' },
    });
    ({ stack, port } = http);
    process.stderr.write(
      `[docs] the stack (device, adb, Appium, serve --http): ${((Date.now() - stackStarted) / 1000).toFixed(1)} s\n`,
    );
    const shellEnv = { ...http.env, PATH: process.env.PATH ?? '' };
    // The README last: its task example leaves a flow task running on the device, which would make
    // the usage guide's calls meet EMULATOR_BUSY.
    const files = [...new Set(commands.filter((c) => classify(c, commands) === 'run').map((c) => c.block))].sort(
      (a, b) => Number(a === 'README.md') - Number(b === 'README.md'),
    );
    for (const block of files) {
      // Each file's examples start where its text starts them: the Settings app's home screen.
      stack.device.setScreen('settings_home' as never);
      const started = Date.now();
      runs.set(block, await runBlock(block, shellEnv));
      // Where this file's minute goes, per block (the suite's order table, test/run/heavyFirst.ts).
      process.stderr.write(`[docs] ${block}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    }
  }, 600_000);

  afterAll(async () => {
    await http?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('every command is run here or has a reason not to be', () => {
    expect(commands.length).toBeGreaterThan(40);
    const unclassified = commands.filter((c) => classify(c, commands) === null);
    expect(unclassified.map((c) => `${c.where}: ${c.text}`)).toEqual([]);
    const skipped = commands.filter((c) => classify(c, commands) !== 'run').length;
    process.stderr.write(
      `[docs] ${commands.length} commands: ${commands.length - skipped} run here, ${skipped} not (each with its reason)\n`,
    );
    // Guard the rules themselves: every rule still matches a command in the docs (a stale one hides nothing).
    for (const [rule, why] of NOT_HERE)
      expect(
        commands.some((c) => rule.test(c.text)),
        `${rule} (${why})`,
      ).toBe(true);
  });

  it('each block ran to its end without a shell error, and every curl that prints JSON printed an envelope', () => {
    expect([...runs.keys()].sort()).toEqual(['README.md', 'docs/guide/http.md', 'docs/guide/usage.md']);
    for (const run of runs.values()) {
      expect(run.code, `${run.block}\n${run.stderr.slice(-2000)}`).toBe(0);
      for (const { command, stdout } of run.outputs) {
        if (!command.text.startsWith('curl ') || / -o |\| jq/.test(command.text)) continue;
        const body = JSON.parse(stdout) as { ok?: unknown; jsonrpc?: unknown };
        // A REST answer is an envelope; the call to /mcp a JSON-RPC message.
        if (/\/mcp\b/.test(command.text)) expect(body.jsonrpc, `${command.where}: ${stdout.slice(0, 300)}`).toBe('2.0');
        else expect(typeof body.ok, `${command.where}: ${stdout.slice(0, 300)}`).toBe('boolean');
      }
    }
  });

  describe('what the commands answered', () => {
    const output = (pattern: RegExp, file: string): string => {
      const found = [...runs.values()]
        .flatMap((r) => r.outputs)
        .find((o) => o.command.where.startsWith(file) && pattern.test(o.command.text));
      if (!found) throw new Error(`no command of ${file} matches ${pattern}`);
      return found.stdout;
    };

    it('README: the status of the device and a tap on "Apps"', () => {
      const status = JSON.parse(
        output(
          /^curl -s -H "Authorization: Bearer \$TOKEN" http:\/\/127\.0\.0\.1:8765\/devices\/emulator-5554$/,
          'README.md',
        ),
      ) as { ok: boolean; error: unknown; data: { udid: string } };
      expect(status.ok, JSON.stringify(status.error)).toBe(true);
      expect(status.data.udid).toBe(stack.serial);
      const tap = JSON.parse(output(/\/tap$/, 'README.md')) as {
        ok: boolean;
        error: unknown;
        data: { target: unknown };
      };
      expect(tap.ok, JSON.stringify(tap.error)).toBe(true);
      expect(tap.data.target).toEqual({ text: 'Apps' });
    });

    it('README: MCP over curl with the headers it names', () => {
      const text = output(/\/mcp -H /, 'README.md');
      const mcp = JSON.parse(text) as { result: { structuredContent: { ok: boolean; tool: string } } };
      expect(mcp.result.structuredContent, text.slice(0, 600)).toMatchObject({ ok: true, tool: 'emulator_get_status' });
    });

    it('docs/guide/http.md: MCP over curl, the REST routes, the screenshot downloaded as a PNG', () => {
      const text = output(/\/mcp -H /, 'docs/guide/http.md');
      const mcp = JSON.parse(text) as { result: { structuredContent: { ok: boolean } } };
      expect(mcp.result.structuredContent.ok, text.slice(0, 600)).toBe(true);
      expect(JSON.parse(output(/devices\s+# device_list/, 'docs/guide/http.md'))).toMatchObject({
        ok: true,
        tool: 'device_list',
      });
      expect(JSON.parse(output(/\$D\s+# emulator_get_status/, 'docs/guide/http.md'))).toMatchObject({
        ok: true,
        tool: 'emulator_get_status',
      });
      expect(JSON.parse(output(/\$D\/tree"/, 'docs/guide/http.md'))).toMatchObject({ ok: true, tool: 'ui_get_tree' });
      expect(JSON.parse(output(/\/launch$/, 'docs/guide/http.md'))).toMatchObject({
        ok: true,
        data: { opened_package: 'com.android.settings' },
      });
      const png = readFileSync(path.join(work, 'screen.png'));
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    });

    it('docs/guide/http.md: a flow task, its state and progress read with jq (never null), its evidence downloaded', () => {
      const progress = JSON.parse(output(/jq '\.data \| \{state, progress\}'/, 'docs/guide/http.md')) as {
        state: string;
        progress: { step: number; of: number };
      };
      expect(progress.state).toBe('passed');
      expect(progress.progress.step).toBe(progress.progress.of);
      const [firstError, url] = output(/jq '\.data\.report\.first_error/, 'docs/guide/http.md')
        .trim()
        .split('\n');
      expect(firstError).toBe('null');
      expect(url).toMatch(/^"\/artifacts\/[^"]+\.png"$/);
      expect(readFileSync(path.join(work, 'step.png')).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      // GET /task/{id}/trace: the task's own viewer page.
      expect(readFileSync(path.join(work, 'task-trace.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    });

    it('docs/guide/usage.md: doctor finds the device, and the example flow passes with its report written where the command says', () => {
      const doctor = output(/^node dist\/index\.js doctor\s+#/, 'docs/guide/usage.md');
      expect(doctor).toMatch(/^android-mcp-harness doctor$/m);
      expect(doctor).toMatch(/^\[ok {2}\] device/m);
      output(/^node dist\/index\.js flow docs\/flows\/example\.json/, 'docs/guide/usage.md');
      const report = JSON.parse(readFileSync(path.join(work, 'artifacts', 'example-report.json'), 'utf8')) as {
        passed: boolean;
        first_error: unknown;
      };
      expect(report.passed, JSON.stringify(report.first_error)).toBe(true);
    });
  });
});
