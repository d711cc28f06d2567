/**
 * Agent-style sessions on the virtual device become tests that run again. Three sessions, each by a
 * real MCP client over stdio sending back only what the server offered: one starts on Settings without
 * app_open (opened through adb before it); one taps refs taken from `after` diffs and from a subtree
 * read (`within`); one types an e-mail and a password into a sign-up form. Each trace exports to a
 * flow that is refused without its inputs (exit 2, every name) and replays green with them, never
 * writing the password; the sign-up session also exports to a WebdriverIO test that runs green as
 * printed: Appium started by its "Appium:" line, the test by its "Run:" line (the port and device filled in).
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

type Entry = Record<string, unknown>;
type Data = Record<string, unknown> & { after?: unknown };

/** What a model holds during a session: every entry seen so far by ref, from whole answers, diffs and parts. */
class Model {
  readonly seen = new Map<string, Entry>();
  constructor(private readonly harness: Awaited<ReturnType<typeof startHarness>>) {}

  learn(summary: unknown): Entry[] {
    if (typeof summary !== 'object' || summary === null) return [];
    const s = summary as Record<string, unknown>;
    const entries: Entry[] = [];
    for (const key of ['actions', 'added', 'changed'])
      for (const entry of (Array.isArray(s[key]) ? s[key] : []) as Entry[])
        if (typeof entry.ref === 'string') {
          this.seen.set(entry.ref, entry);
          entries.push(entry);
        }
    return entries;
  }

  /** The newest entry seen that answers the predicate: its ref, as the model sends it back. */
  ref(predicate: (entry: Entry) => boolean, among: readonly Entry[] = [...this.seen.values()]): string {
    const found = [...among].reverse().find(predicate);
    if (!found) throw new Error(`no such entry among ${JSON.stringify(among)}`);
    return String(found.ref);
  }

  async act(tool: string, args: Record<string, unknown>): Promise<{ data: Data; entries: Entry[] }> {
    const answer = await this.harness.call(tool, args);
    expect(answer.envelope.error).toBeNull();
    const data = answer.envelope.data as Data;
    return { data, entries: this.learn(data.after ?? data) };
  }
}

interface ExportedFlow {
  package_name: string;
  inputs: Record<string, { secret?: boolean }>;
  steps: { tool: string; arguments: Record<string, unknown>; expect?: unknown }[];
}

const describeHere = ON_EMULATOR ? (): void => undefined : describeWithAdb;

describeHere('agent sessions on the virtual device export to flows and a WebdriverIO test that replay green', () => {
  let stack: E2eStack;
  let work: string;
  /** Each session's trace folder, by name. */
  const traces = new Map<string, string>();
  const env = (artifacts: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    ...stack.harnessEnv({ ANDROID_MCP_ARTIFACTS_DIR: path.join(work, artifacts), ...extra }),
  });

  beforeAll(async () => {
    stack = await startStack({ label: 'export-replay' });
    work = mkdtempSync(path.join(os.tmpdir(), 'amh-export-'));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  /** One session by one MCP client over stdio, from a cold Settings; returns its trace lines. */
  async function record(name: string, script: (model: Model) => Promise<void>): Promise<Record<string, unknown>[]> {
    await stack.adb(['shell', 'am', 'force-stop', 'com.android.settings']);
    await stack.adb(['shell', 'am', 'force-stop', 'com.google.android.settings.intelligence']);
    const harness = await startHarness(env(name) as Record<string, string>);
    try {
      await script(new Model(harness));
    } finally {
      await harness.close();
    }
    const folder = path.join(work, name, 'traces');
    const [dir] = readdirSync(folder);
    traces.set(name, path.join(folder, dir ?? ''));
    return readFileSync(path.join(folder, dir ?? '', 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /**
   * The session's trace exported to a flow: refused without its inputs (exit 2, every name, nothing
   * run), green with them from a cold Settings. `typed` are the texts typed, in the order typed.
   */
  async function exportAndReplay(
    name: string,
    typed: readonly string[],
    tools: readonly string[],
  ): Promise<ExportedFlow & { text: string }> {
    const traceDir = traces.get(name) ?? '';
    const exported = await run(process.execPath, [BUILT_SERVER, 'trace', 'export', traceDir], env(name), work);
    expect(exported.stderr).not.toMatch(/refus|cannot/i);
    expect(exported.code).toBe(0);
    const file = exported.stdout.trim();
    const text = readFileSync(file, 'utf8');
    const flow = JSON.parse(text) as ExportedFlow;
    expect(flow.steps.map((step) => step.tool)).toEqual(tools);
    expect(flow.steps.every((step) => step.expect !== undefined)).toBe(true);
    // Each typing step types one input, by name, in the order typed.
    const names = flow.steps
      .filter((step) => step.tool === 'ui_type_text')
      .map((step) => /^\$\{([A-Za-z0-9_]+)\}$/.exec(String(step.arguments.text))?.[1] ?? '');
    expect(names).toHaveLength(typed.length);
    expect(Object.keys(flow.inputs).sort()).toEqual([...names].sort());

    const refused = await run(process.execPath, [BUILT_SERVER, 'flow', file], env(name), work);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`needs inputs it was not given: ${Object.keys(flow.inputs).join(', ')}`);
    expect(refused.stdout).toBe('');

    // app_open resumes Settings where the recording left it (on Android too: the launcher intent
    // brings the task back), so each replay starts from a cold Settings, as each session did.
    await stack.adb(['shell', 'am', 'force-stop', 'com.android.settings']);
    await stack.adb(['shell', 'am', 'force-stop', 'com.google.android.settings.intelligence']);
    const inputs = names.flatMap((input, i) => ['--input', `${input}=${typed[i] ?? ''}`]);
    const replay = await run(process.execPath, [BUILT_SERVER, 'flow', file, ...inputs], env(name), work);
    expect(replay.stderr).toMatch(new RegExp(`: PASSED, ${tools.length}/${tools.length} steps`));
    expect(replay.code).toBe(0);
    names.forEach((input, i) => {
      if (flow.inputs[input]?.secret === true) expect(replay.stdout + replay.stderr).not.toContain(typed[i]);
    });
    return { ...flow, text };
  }

  /** Each acting line records the element as the server resolved it, in acted_bounds' shape. */
  function expectElements(lines: readonly Record<string, unknown>[]): void {
    const acting = lines.filter((line) => line.tool === 'ui_tap' || line.tool === 'ui_type_text');
    expect(acting.length).toBeGreaterThan(0);
    for (const line of acting) {
      expect(line.element).toMatchObject({ source: 'ref', selectors: expect.any(Array), label: expect.any(String) });
      expect((line.element as { bounds: unknown }).bounds).toEqual(line.acted_bounds);
    }
  }

  it('a session that starts on Settings without app_open exports and replays', async () => {
    const lines = await record('settings-start', async (model) => {
      // Settings is in front before the session (opened through adb): the model never opens an app.
      await stack.adb(['shell', 'am', 'start', '-W', '-n', 'com.android.settings/.Settings']);
      const tree = await model.act('ui_get_tree', {});
      expect(tree.data.foreground_package).toBe('com.android.settings');
      await model.act('ui_tap', { selector: { ref: model.ref((e) => e.id === 'search_action_bar') } });
      const typed = await model.act('ui_type_text', {
        selector: { ref: model.ref((e) => e.input_hint === 'Search settings') },
        text: 'storage',
      });
      // The result row arrives in the typing's diff: its ref is taken from there.
      expect(typed.data.after).toMatchObject({ diff_of: expect.any(String) });
      await model.act('ui_tap', { selector: { ref: model.ref((e) => e.text === 'Storage', typed.entries) } });
    });
    expect(lines.some((line) => line.tool === 'app_open')).toBe(false);
    expectElements(lines);
    const flow = await exportAndReplay('settings-start', ['storage'], ['ui_tap', 'ui_type_text', 'ui_tap']);
    expect(flow.package_name).toBe('com.android.settings');
  }, 300_000);

  it('a session tapping refs from after diffs and from a subtree read exports and replays', async () => {
    const lines = await record('diff-and-part', async (model) => {
      await model.act('app_open', { package_name: 'com.android.settings' });
      await model.act('ui_tap', { selector: { ref: model.ref((e) => e.id === 'search_action_bar') } });
      const typed = await model.act('ui_type_text', {
        selector: { ref: model.ref((e) => e.input_hint === 'Search settings') },
        text: 'Notifications',
      });
      expect(typed.data.after).toMatchObject({ diff_of: expect.any(String) });
      // One container only: the results list, read as a part; the row is tapped by the part's ref.
      const part = await model.act('ui_get_tree', { within: { id: 'list_results' } });
      expect(part.entries.length).toBeGreaterThan(0);
      const opened = await model.act('ui_tap', {
        selector: { ref: model.ref((e) => e.text === 'Notifications', part.entries) },
      });
      // Back up from the page by the ref its `after` offered.
      await model.act('ui_tap', {
        selector: { ref: model.ref((e) => e.content_desc === 'Navigate up', opened.entries) },
      });
    });
    expect(lines.some((line) => line.tool === 'ui_get_tree' && (line.arguments as Entry | undefined)?.within)).toBe(
      true,
    );
    expectElements(lines);
    await exportAndReplay('diff-and-part', ['Notifications'], ['ui_tap', 'ui_type_text', 'ui_tap', 'ui_tap']);
  }, 300_000);

  it('a session typing an e-mail and a password into a sign-up form exports and replays, the password never written', async () => {
    const lines = await record('sign-up', async (model) => {
      await model.act('app_open', { package_name: 'com.android.settings' });
      await model.act('ui_scroll', { direction: 'down' });
      await model.act('ui_scroll', { direction: 'down' });
      await model.act('ui_tap', { selector: { ref: model.ref((e) => e.text === 'Passwords & accounts') } });
      await model.act('ui_tap', { selector: { ref: model.ref((e) => e.text === 'Add account') } });
      await model.act('ui_type_text', { selector: { ref: model.ref((e) => e.id === 'account_email') }, text: EMAIL });
      await model.act('ui_type_text', {
        selector: { ref: model.ref((e) => e.input_hint === 'Password') },
        text: PASSWORD,
      });
      await model.act('ui_tap', { selector: { ref: model.ref((e) => e.text === 'Create account') } });
    });
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
    expectElements(lines);
    expect(
      lines.find((line) => line.tool === 'ui_type_text' && (line.element as { password?: true }).password),
    ).toBeDefined();
    const flow = await exportAndReplay(
      'sign-up',
      [EMAIL, PASSWORD],
      ['ui_scroll', 'ui_scroll', 'ui_tap', 'ui_tap', 'ui_type_text', 'ui_type_text', 'ui_tap'],
    );
    expect(Object.values(flow.inputs).filter((input) => input.secret === true)).toHaveLength(1);
    // Neither typed value is written into the flow: each is an input, given at replay.
    expect(flow.text).not.toContain(EMAIL);
    expect(flow.text).not.toContain(PASSWORD);
  }, 300_000);

  it('exports to a WebdriverIO test that runs green as printed, against Appium started as printed', async () => {
    // Inside the repository, so that `import 'webdriverio'` resolves as in a user's project.
    const out = path.join(REPO_ROOT, 'artifacts', 'test-output', `export-replay-${process.pid}.test.mjs`);
    mkdirSync(path.dirname(out), { recursive: true });
    await stack.adb(['shell', 'am', 'force-stop', 'com.android.settings']);
    const exported = await run(
      process.execPath,
      [BUILT_SERVER, 'trace', 'export', traces.get('sign-up') ?? '', '--format', 'wdio', '--out', out],
      env('sign-up'),
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
});
