/**
 * `android-mcp-harness flow FILE.json [--report OUT.json] [--verbose]`: runs a reference flow
 * against the harness's own server over stdio. The JSON report is this CLI's output (stdout,
 * or --report FILE); the readable summary goes to stderr. Exit 0 only when everything passed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseToolsets, TOOLSET_CHOICES, ToolsetsError } from '../domain/toolsets.js';
import { CORE_ONLY, FlowFileError, parseFlowFile, type FlowFile } from './flowFile.js';
import { FlowInputError, parseInputOptions, redactSecrets, resolveInputs } from './flowInputs.js';
import { runFlow, summarizeReport, type FlowReport } from './runFlow.js';
import { connectToHarness, type HarnessConnectionOptions } from './stdioFlowClient.js';
import { flowTraceFor } from '../trace/flowTrace.js';

export const FLOW_USAGE = `Usage: android-mcp-harness flow FILE.json [--input NAME=VALUE]... [--repair] [--report OUT.json] [--toolsets LIST] [--verbose]

Checks the whole file first (every step's tool and arguments; exit code 2 listing every problem,
nothing started), then runs it through the harness's own MCP server over stdio:
app_open → ui_get_tree → ui_session_open → the file's steps (session id injected, stopping at the
first failure) → ui_session_close → ui_get_tree. The JSON report goes to stdout (or --report FILE),
a readable summary with the evidence files' paths to stderr. Exit code 0 only when everything passed.

FILE.json: {"package_name": "com.example.app",
            "steps": [{"tool": "ui_tap", "arguments": {"selector": {"text": "Login"}}}, ...]}
Steps: the acting tools and ui_wait of the toolsets on (core: ui_tap, ui_type_text, ui_scroll,
device_back, app_open, settings_open_apps). --toolsets LIST turns more on, as for the server
(${TOOLSET_CHOICES.join(', ')}; default: ANDROID_MCP_TOOLSETS). See docs/flows/.

Inputs: a flow that declares "inputs" and uses them as \${name} gets each value from
--input NAME=VALUE (repeatable) or ANDROID_MCP_INPUT_<NAME>; a missing one is refused before
anything starts (exit code 2, every missing name listed). A secret input's value is never written.
Steps with "expect" check the screen after them and stop with "expected … found …" when it differs.
--repair: a step whose selector matches nothing is run again with the one element that clears the
repair threshold by the facts the step recorded; writes FILE.repaired.json and FILE.repair.json.`;

export interface FlowCommandOptions {
  readonly file: string;
  readonly reportFile?: string | null;
  readonly verbose?: boolean;
  /** The toolsets the server serves (default: ANDROID_MCP_TOOLSETS of the connection's environment). */
  readonly toolsets?: string;
  /** --input NAME=VALUE values (ANDROID_MCP_INPUT_<NAME> of the connection's environment fills the rest). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** --repair: repair steps whose selector matches nothing, and write FILE.repaired.json and FILE.repair.json. */
  readonly repair?: boolean;
  readonly connection?: HarnessConnectionOptions;
  /** Where the summary goes (default stderr). */
  readonly log?: (line: string) => void;
}

/** Loads, runs and reports one flow; returns the report (exit code: report.passed ? 0 : 1). */
export async function runFlowFile(options: FlowCommandOptions): Promise<FlowReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const baseEnv = options.connection?.env ?? process.env;
  const source = options.toolsets === undefined ? 'ANDROID_MCP_TOOLSETS' : '--toolsets';
  const toolsets = parseToolsets(options.toolsets ?? baseEnv.ANDROID_MCP_TOOLSETS, source);
  // Before anything starts: a bad file costs no server, no adb, no Appium, no lock.
  const flow = await parseFlowFile(await readFile(options.file, 'utf8'), options.file, { ...CORE_ONLY, toolsets });
  const inputs = resolveInputs(flow.inputs ?? {}, options.inputs ?? {}, baseEnv, options.file);
  const secrets = Object.entries(flow.inputs ?? {}).flatMap(([name, declared]) =>
    declared.secret === true && inputs[name] !== undefined ? [[name, inputs[name]] as const] : [],
  );
  // The server writes its trace into a folder named here, so that the report can name it.
  const trace = flowTraceFor(baseEnv, options.connection?.cwd ?? process.cwd());
  const connection = await connectToHarness({
    ...options.connection,
    env: { ...trace.env, ANDROID_MCP_TOOLSETS: toolsets.join(',') },
    onLog: (level, text) => {
      options.connection?.onLog?.(level, text);
      log(`  server ${level}: ${text}`);
    },
  });
  let report: FlowReport;
  try {
    const evidencePath = (artifactId: string): string => `${trace.evidencePrefix}${artifactId}`;
    report = {
      ...(await runFlow(flow, connection.client, {
        source: options.file,
        evidencePath,
        inputs,
        repair: options.repair === true,
      })),
      trace: trace.path,
    };
  } finally {
    await connection.close();
  }
  if (options.repair === true && (report.repairs ?? []).length > 0) {
    const written = await writeRepairs(options.file, flow, report);
    report = { ...report, ...written };
  }
  for (const line of summarizeReport(report)) log(line);
  if (report.repaired_file) log(`repaired flow: ${report.repaired_file}; repair report: ${report.repair_report ?? ''}`);
  if (!report.passed || options.verbose)
    for (const line of serverLogSection(redactSecrets(connection.stderrTail(), secrets), options.verbose === true))
      log(line);
  return report;
}

/** The server's last stderr lines under a heading; nothing at all when it wrote nothing but blank lines. */
export function serverLogSection(tail: readonly string[], verbose: boolean): string[] {
  // Blank lines are not a log: the heading is printed only above something to read.
  const lines = tail.filter((line) => line.trim() !== '');
  if (lines.length === 0) return [];
  return ['server log (last lines):', ...lines.slice(verbose ? 0 : -15).map((line) => `  ${line}`)];
}

/** FILE.repaired.json (the flow with each repaired step's new selector and element) and FILE.repair.json (the repairs). */
async function writeRepairs(
  file: string,
  flow: FlowFile,
  report: FlowReport,
): Promise<{ repaired_file: string; repair_report: string }> {
  const base = file.endsWith('.json') ? file.slice(0, -'.json'.length) : file;
  const repairedFile = `${base}.repaired.json`;
  const reportFile = `${base}.repair.json`;
  const repairs = report.repairs ?? [];
  const steps = flow.steps.map((step, index) => {
    const repair = repairs.find((r) => r.step === index + 1);
    if (!repair) return step;
    const { source: _source, ...element } = repair.element;
    return {
      ...step,
      arguments: { ...step.arguments, selector: repair.new_selector },
      element: { ...element, source: 'repair' },
      note: `${step.note ? `${step.note}; ` : ''}repaired: was ${JSON.stringify(repair.old_selector)} (score ${repair.score.toFixed(2)})`,
    };
  });
  await writeFile(repairedFile, `${JSON.stringify({ ...flow, steps }, null, 2)}\n`);
  await writeFile(
    reportFile,
    `${JSON.stringify({ flow: file, repaired_flow: repairedFile, passed: report.passed, repairs }, null, 2)}\n`,
  );
  return { repaired_file: repairedFile, repair_report: reportFile };
}

export async function flowMain(argv: readonly string[]): Promise<number> {
  let file: string;
  let reportFile: string | null;
  let verbose: boolean;
  let toolsets: string | undefined;
  let inputs: Record<string, string>;
  let repair: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: {
        report: { type: 'string' },
        toolsets: { type: 'string' },
        input: { type: 'string', multiple: true },
        repair: { type: 'boolean' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
    if (values.help) {
      process.stdout.write(`${FLOW_USAGE}\n`); // stdout-ok: CLI help
      return 0;
    }
    if (positionals.length !== 1 || !positionals[0]) throw new Error('give exactly one flow file');
    file = positionals[0];
    reportFile = values.report ?? null;
    verbose = values.verbose === true;
    toolsets = values.toolsets;
    inputs = parseInputOptions(values.input ?? []);
    repair = values.repair === true;
  } catch (error) {
    process.stderr.write(`flow: ${(error as Error).message}\n\n${FLOW_USAGE}\n`);
    return 2;
  }
  let report: FlowReport;
  try {
    report = await runFlowFile({
      file,
      reportFile,
      verbose,
      inputs,
      repair,
      ...(toolsets === undefined ? {} : { toolsets }),
    });
  } catch (error) {
    if (
      error instanceof FlowFileError ||
      error instanceof FlowInputError ||
      error instanceof ToolsetsError ||
      (error as NodeJS.ErrnoException).code === 'ENOENT'
    ) {
      process.stderr.write(`flow: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (reportFile) {
    await writeFile(reportFile, json);
    process.stderr.write(`report written to ${reportFile}\n`);
  } else {
    process.stdout.write(json); // stdout-ok: the flow report is this CLI's output
  }
  return report.passed ? 0 : 1;
}
