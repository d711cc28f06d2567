/**
 * What a model pays per step of the three reference flows (docs/flows) in two loops on the same
 * device, the same server and the same answers: the MCP loop (a tool call; the answer's text block)
 * and the shell loop of the agents' command line with its skill (a shell command
 * `android-mcp-harness cli <verb> …`; what the CLI prints, the envelope in its compact text form).
 * Plus what each costs before the first step: the default tool catalogue (tools/list) against the
 * skill file (skills/android/SKILL.md).
 *
 * One run of the built server over stdio drives the flows through the real adb and Appium on the
 * virtual device, in a UI session as the flow runner does, as every loop of part 7 (parts/stepLoops.ts).
 * The CLI's side is computed from the same envelopes: its server is this server and it prints
 * src/cli/render.ts's form of the envelope, so the device's answers are the same by construction;
 * each command line is checked against the CLI's own parser (it must mean the same tool call).
 * Tokens: gpt-tokenizer's o200k_base, as every token figure of the bench.
 *
 *   TSX_DISABLE_CACHE=1 node --import tsx bench/cliSteps.ts [--json]
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderEnvelope } from '../src/cli/render.js';
import { parseVerb } from '../src/cli/verbs.js';
import { loadTestSupport, startDeviceStack } from './lib/deviceStack.js';
import { cleanEnv, spawnServer } from './lib/mcpClient.js';
import { REPO_ROOT } from './lib/paths.js';
import { round } from './lib/stats.js';
import { measure } from './lib/tokens.js';
import { STEP_FLOWS } from './parts/stepLoops.js';

const run = promisify(execFile);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface FlowStep {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

/** How the shell agent writes one step: the CLI's verb and its words (no session: the CLI keeps it). */
export function cliWordsOf(tool: string, args: Record<string, unknown>): string[] {
  const target = (selector: unknown): string => {
    const s = selector as Record<string, unknown>;
    const keys = Object.keys(s);
    if (keys.length === 1 && typeof s.ref === 'string') return s.ref;
    if (keys.length === 1 && typeof s[keys[0]!] === 'string') return `${keys[0]}=${String(s[keys[0]!])}`;
    return JSON.stringify(s);
  };
  switch (tool) {
    case 'ui_tap':
      return ['tap', target(args.selector), ...(args.long_press === true ? ['--long'] : [])];
    case 'ui_type_text':
      return ['type', target(args.selector), String(args.text)];
    case 'ui_scroll':
      return ['scroll', String(args.direction), ...(args.selector ? [target(args.selector)] : [])];
    case 'device_back':
      return ['back'];
    case 'app_open':
      return ['open', String(args.package_name)];
    case 'ui_get_tree':
      return ['tree'];
    default:
      throw new Error(`no verb for ${tool}`);
  }
}

/** The words as a shell line: a word with a space or a shell character single-quoted. */
function shellLine(words: readonly string[]): string {
  const quoted = words.map((w) => (/^[\w.=:/@-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`));
  return ['android-mcp-harness', 'cli', ...quoted].join(' ');
}

interface Row {
  readonly flow: string;
  readonly steps: number;
  readonly mcp_call: number;
  readonly mcp_answer: number;
  readonly cli_call: number;
  readonly cli_answer: number;
}

async function main(): Promise<void> {
  const asJson = process.argv.includes('--json');
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const support = await loadTestSupport();
  if (!support) throw new Error('test/support is absent, so there is no virtual device to drive');
  if (!support.locateAdb()) throw new Error('adb is not installed (apt-get install -y adb)');
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const { adbServer, vd, appium } = await startDeviceStack(support, cleanups);
    const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-cli-'));
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    const server = await spawnServer(
      process.execPath,
      [join(REPO_ROOT, 'dist', 'index.js')],
      cleanEnv({
        ANDROID_ADB_SERVER_PORT: String(adbServer.port),
        ANDROID_UDID: vd.serial,
        ANDROID_MCP_ALLOW_SERIALS: vd.serial,
        APPIUM_URL: appium.url,
        ANDROID_MCP_LOG_LEVEL: 'warn',
        ANDROID_MCP_ARTIFACTS_DIR: join(cwd, 'artifacts'),
      }),
      cwd,
    );
    cleanups.push(async () => {
      const pid = server.transport.pid;
      await server.client.close().catch(() => undefined);
      // Ended by its pid if closing its stdin did not end it.
      if (pid !== null) for (let waited = 0; alive(pid) && waited < 6000; waited += 100) await sleep(100);
      if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
    });
    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
      (await server.client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallToolResult;
    const textOf = (result: CallToolResult): string => {
      const first = result.content[0];
      return first && first.type === 'text' ? first.text : '';
    };

    const { tools } = await server.client.listTools();
    const catalogue = measure(JSON.stringify(tools)).tokens_o200k;
    const skill = measure(readFileSync(join(REPO_ROOT, 'skills', 'android', 'SKILL.md'), 'utf8')).tokens_o200k;

    const rows: Row[] = [];
    for (const file of STEP_FLOWS) {
      const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'flows', file), 'utf8')) as {
        package_name: string;
        steps: FlowStep[];
      };
      vd.device.setScreen('settings_home');
      const opened = JSON.parse(textOf(await call('ui_session_open', {}))) as { data?: { session_id?: string } };
      const session_id = opened.data?.session_id;
      if (!session_id) throw new Error(`${file}: ui_session_open failed`);
      await call('app_open', { package_name: flow.package_name, session_id });
      const sums = { mcp_call: 0, mcp_answer: 0, cli_call: 0, cli_answer: 0 };
      for (const step of flow.steps) {
        const args = { ...step.arguments, session_id };
        const result = await call(step.tool, args);
        const words = cliWordsOf(step.tool, step.arguments);
        const parsed = parseVerb(words);
        if (
          parsed.kind !== 'tool' ||
          parsed.tool !== step.tool ||
          JSON.stringify(parsed.args) !== JSON.stringify(step.arguments)
        )
          throw new Error(
            `${file}: ${JSON.stringify(words)} does not mean ${step.tool} ${JSON.stringify(step.arguments)}`,
          );
        // What the model writes: the tool call's name and arguments; the shell tool's one `command`.
        sums.mcp_call += measure(JSON.stringify({ name: step.tool, arguments: args })).tokens_o200k;
        sums.cli_call += measure(JSON.stringify({ command: shellLine(words) })).tokens_o200k;
        // What it reads: the text block; what the CLI prints for the same envelope.
        sums.mcp_answer += measure(textOf(result)).tokens_o200k;
        sums.cli_answer += measure(renderEnvelope(result.structuredContent)).tokens_o200k;
      }
      await call('ui_session_close', { session_id });
      rows.push({ flow: file, steps: flow.steps.length, ...sums });
      log(`${file}: ${flow.steps.length} steps measured`);
    }

    const commit = (await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT })).stdout.trim();
    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    if (asJson) {
      process.stdout.write(`${JSON.stringify({ date, commit, catalogue, skill, rows }, null, 2)}\n`);
      return;
    }
    const out: string[] = [
      `Measured ${date} UTC at commit \`${commit}\` (bench/cliSteps.ts; o200k tokens).`,
      '',
      `Before the first step: the default catalogue (tools/list) **${catalogue}** tokens, the skill file **${skill}** (${round(skill / catalogue, 2)}×).`,
      '',
      '| flow | steps | MCP: call + answer per step | CLI: command + output per step | CLI ÷ MCP |',
      '| --- | ---: | ---: | ---: | ---: |',
    ];
    for (const r of rows) {
      const mcp = (r.mcp_call + r.mcp_answer) / r.steps;
      const cli = (r.cli_call + r.cli_answer) / r.steps;
      out.push(
        `| ${r.flow} | ${r.steps} | ${Math.round(mcp)} (${Math.round(r.mcp_call / r.steps)} + ${Math.round(r.mcp_answer / r.steps)}) | ${Math.round(cli)} (${Math.round(r.cli_call / r.steps)} + ${Math.round(r.cli_answer / r.steps)}) | ${round(cli / mcp, 2)}× |`,
      );
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
