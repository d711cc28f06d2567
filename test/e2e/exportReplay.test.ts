/**
 * An agent-style session on the virtual device becomes a test that runs again: the session starts
 * on Settings without app_open (opened through adb before it), taps refs taken from each action's
 * `after` (diffs included), and types an e-mail and a password into the sign-up form. Its trace
 * exports to a flow that replays green with --input given and is refused without (exit 2, both
 * names), never writing the password; and to a WebdriverIO test that runs green as printed: Appium
 * started by its "Appium:" line, the test by its "Run:" line (the port and device filled in).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { freePort } from '../support/ports.js';
import { stopChild, trackChild } from '../support/processes.js';
import { BUILT_SERVER, startHarness } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, [...args], { env, cwd, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
        stdout: String(stdout),
        stderr: String(stderr),
      }),
    );
  });
}

/** `A=1 B=2 cmd arg…` as printed in the export's header: the variables and the argv (no shell). */
function commandLine(line: string): { env: Record<string, string>; argv: string[] } {
  const words = line.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const word = words.shift()!;
    const at = word.indexOf('=');
    env[word.slice(0, at)] = word.slice(at + 1);
  }
  return { env, argv: words };
}

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse';

const describeHere = ON_EMULATOR ? (): void => undefined : describeWithAdb;

describeHere(
  'an agent session on the virtual device exports to a flow and a WebdriverIO test that replay green',
  () => {
    let stack: E2eStack;
    let work: string;
    let traceDir: string;
    const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
      ...process.env,
      ...stack.harnessEnv({ ANDROID_MCP_ARTIFACTS_DIR: path.join(work, 'artifacts'), ...extra }),
    });

    beforeAll(async () => {
      stack = await startStack({ label: 'export-replay' });
      work = mkdtempSync(path.join(os.tmpdir(), 'amh-export-'));
    }, 120_000);

    afterAll(async () => {
      await stack?.stop();
      if (work) rmSync(work, { recursive: true, force: true });
    }, 60_000);

    it('records the session: refs from after diffs, typing into a sign-up form, starting on Settings without app_open', async () => {
      // Settings is in front before the session: the model never opens an app.
      await stack.adb(['shell', 'am', 'start', '-W', '-n', 'com.android.settings/.Settings']);
      const harness = await startHarness(env() as Record<string, string>);
      try {
        // Every entry seen so far by ref, from whole answers and diffs alike (a model holds the same).
        const seen = new Map<string, Record<string, unknown>>();
        const learn = (summary: unknown): void => {
          if (typeof summary !== 'object' || summary === null) return;
          const s = summary as Record<string, unknown>;
          for (const key of ['actions', 'added', 'changed'])
            for (const entry of (Array.isArray(s[key]) ? s[key] : []) as Record<string, unknown>[])
              if (typeof entry.ref === 'string') seen.set(entry.ref, entry);
        };
        const refWhere = (predicate: (entry: Record<string, unknown>) => boolean): string => {
          const found = [...seen.values()].reverse().find(predicate);
          if (!found) throw new Error(`no such entry among ${JSON.stringify([...seen.values()])}`);
          return String(found.ref);
        };
        const act = async (tool: string, args: Record<string, unknown>) => {
          const answer = await harness.call(tool, args);
          expect(answer.envelope.error).toBeNull();
          learn(answer.envelope.data.after ?? answer.envelope.data);
          return answer.envelope.data;
        };
        const tree = await act('ui_get_tree', {});
        expect(tree.foreground_package).toBe('com.android.settings');
        await act('ui_scroll', { direction: 'down' });
        await act('ui_scroll', { direction: 'down' });
        await act('ui_tap', { selector: { ref: refWhere((e) => e.text === 'Passwords & accounts') } });
        await act('ui_tap', { selector: { ref: refWhere((e) => e.text === 'Add account') } });
        await act('ui_type_text', { selector: { ref: refWhere((e) => e.id === 'account_email') }, text: EMAIL });
        await act('ui_type_text', { selector: { ref: refWhere((e) => e.input_hint === 'Password') }, text: PASSWORD });
        await act('ui_tap', { selector: { ref: refWhere((e) => e.text === 'Create account') } });
      } finally {
        await harness.close();
      }
      const traces = path.join(work, 'artifacts', 'traces');
      const [name] = readdirSync(traces);
      traceDir = path.join(traces, name ?? '');
      const text = readFileSync(path.join(traceDir, 'trace.jsonl'), 'utf8');
      expect(text).not.toContain(PASSWORD);
      const taps = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.tool === 'ui_tap' || line.tool === 'ui_type_text');
      // Each acting line records the element as the server resolved it, in acted_bounds' shape.
      for (const line of taps) {
        expect(line.element).toMatchObject({ source: 'ref', selectors: expect.any(Array), label: expect.any(String) });
        expect((line.element as { bounds: unknown }).bounds).toEqual(line.acted_bounds);
      }
      expect(
        taps.find((line) => line.tool === 'ui_type_text' && (line.element as { password?: true }).password),
      ).toBeDefined();
    }, 300_000);

    it('exports to a flow with inputs that is refused without them and replays green with them', async () => {
      const exported = await run(process.execPath, [BUILT_SERVER, 'trace', 'export', traceDir], env(), work);
      expect(exported.code).toBe(0);
      expect(exported.stderr).toMatch(/the flow takes 2 inputs/);
      const file = exported.stdout.trim();
      const flow = JSON.parse(readFileSync(file, 'utf8')) as {
        package_name: string;
        inputs: Record<string, { secret?: boolean }>;
        steps: { tool: string; arguments: Record<string, unknown>; expect?: unknown }[];
      };
      expect(flow.package_name).toBe('com.android.settings');
      expect(flow.steps.map((step) => step.tool)).toEqual([
        'ui_scroll',
        'ui_scroll',
        'ui_tap',
        'ui_tap',
        'ui_type_text',
        'ui_type_text',
        'ui_tap',
      ]);
      const names = Object.keys(flow.inputs);
      expect(names).toHaveLength(2);
      const secret = names.find((name) => flow.inputs[name]?.secret === true);
      const plain = names.find((name) => name !== secret);
      expect(secret).toBeDefined();
      expect(flow.steps.every((step) => step.expect !== undefined)).toBe(true);

      expect(readFileSync(file, 'utf8')).not.toContain(EMAIL);

      const refused = await run(process.execPath, [BUILT_SERVER, 'flow', file], env(), work);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`needs inputs it was not given: ${names.join(', ')}`);
      expect(refused.stdout).toBe('');

      // The session began on the Settings home; app_open resumes Settings where the recording left it
      // (on Android too: the launcher intent brings the task back), so the replay starts from a fresh Settings.
      await stack.adb(['shell', 'am', 'force-stop', 'com.android.settings']);
      const replay = await run(
        process.execPath,
        [BUILT_SERVER, 'flow', file, '--input', `${plain}=${EMAIL}`, '--input', `${secret}=${PASSWORD}`],
        env(),
        work,
      );
      expect(replay.stderr).toMatch(/: PASSED, 7\/7 steps/);
      expect(replay.code).toBe(0);
      expect(replay.stdout + replay.stderr).not.toContain(PASSWORD);
    }, 300_000);

    it('exports to a WebdriverIO test that runs green as printed, against Appium started as printed', async () => {
      // Inside the repository, so that `import 'webdriverio'` resolves as in a user's project.
      const out = path.join(REPO_ROOT, 'artifacts', 'test-output', `export-replay-${process.pid}.test.mjs`);
      mkdirSync(path.dirname(out), { recursive: true });
      await stack.adb(['shell', 'am', 'force-stop', 'com.android.settings']);
      const exported = await run(
        process.execPath,
        [BUILT_SERVER, 'trace', 'export', traceDir, '--format', 'wdio', '--out', out],
        env(),
        work,
      );
      expect(exported).toMatchObject({ code: 0, stderr: expect.not.stringContaining('Error') });
      try {
        const source = readFileSync(out, 'utf8');
        const appiumLine = /^\/\/ Appium: (.*)$/m.exec(source)?.[1] ?? '';
        const runLine = /^\/\/ Run: (.*)$/m.exec(source)?.[1] ?? '';
        const appiumCommand = commandLine(appiumLine);
        expect(appiumCommand.env.ANDROID_HOME).toMatch(/^\//);
        // The printed port, 4723, may be taken on a shared machine: a free one instead, nothing else changed.
        const port = await freePort();
        const argv = appiumCommand.argv.map((word) => (word === '4723' ? String(port) : word));
        expect(argv[0]).toBe('node');
        const appium = spawn(process.execPath, argv.slice(1), {
          // The private adb server of this stack; a user's is the default one.
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            ...appiumCommand.env,
            ANDROID_ADB_SERVER_PORT: String(stack.adbPort),
          },
          stdio: 'ignore',
        });
        trackChild(appium);
        try {
          for (let i = 0; i < 120; i += 1) {
            const up = await fetch(`http://127.0.0.1:${port}/status`).then(
              (r) => r.ok,
              () => false,
            );
            if (up) break;
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          const runCommand = commandLine(runLine);
          const inputs = Object.keys(runCommand.env).filter((name) => name.startsWith('ANDROID_MCP_INPUT_'));
          expect(inputs).toHaveLength(2);
          const inputValues = Object.fromEntries(
            inputs.map((name) => [name, name.includes('PASSWORD') ? PASSWORD : EMAIL]),
          );
          expect(runCommand.argv.slice(0, 2)).toEqual(['node', '--test']);
          // Without its inputs it stops before any session: a replay never types a placeholder.
          const missing = await run(
            process.execPath,
            ['--test', out],
            { PATH: process.env.PATH, HOME: process.env.HOME },
            REPO_ROOT,
          );
          expect(missing.code).not.toBe(0);
          expect(missing.stdout + missing.stderr).toMatch(/missing inputs: set ANDROID_MCP_INPUT_/);
          const passed = await run(
            process.execPath,
            ['--test', '--test-reporter=spec', out],
            {
              PATH: process.env.PATH,
              HOME: process.env.HOME,
              ...runCommand.env,
              ...inputValues,
              APPIUM_URL: `http://127.0.0.1:${port}`,
              ANDROID_UDID: stack.serial,
              ANDROID_ADB_SERVER_PORT: String(stack.adbPort),
            },
            REPO_ROOT,
          );
          expect(passed.stdout).toMatch(/pass 7/);
          expect(passed.code).toBe(0);
        } finally {
          await stopChild(appium);
        }
      } finally {
        rmSync(out, { force: true });
      }
    }, 300_000);
  },
);
