/**
 * `android-mcp-harness flow FILE.json [--report OUT.json] [--verbose]`: runs a reference flow
 * against the harness's own server over stdio. The JSON report is this CLI's output (stdout,
 * or --report FILE); the readable summary goes to stderr. Exit 0 only when everything passed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { FlowFileError, parseFlowFile } from './flowFile.js';
import { runFlow, summarizeReport, type FlowReport } from './runFlow.js';
import { connectToHarness, type HarnessConnectionOptions } from './stdioFlowClient.js';
import { flowTraceFor } from '../trace/flowTrace.js';

export const FLOW_USAGE = `Usage: android-mcp-harness flow FILE.json [--report OUT.json] [--verbose]

Runs a reference flow through the harness's own MCP server over stdio:
app_open → ui_get_tree → ui_session_open → the file's steps (session id injected, stopping at the
first failure) → ui_session_close → ui_get_tree. The JSON report goes to stdout (or --report FILE),
a readable summary with the evidence paths to stderr. Exit code 0 only when everything passed.

FILE.json: {"package_name": "com.example.app",
            "steps": [{"tool": "ui_tap", "arguments": {"selector": {"text": "Login"}}}, ...]}
Step tools: ui_tap, ui_type_text, ui_scroll, device_back. See docs/flows/.`;

export interface FlowCommandOptions {
  readonly file: string;
  readonly reportFile?: string | null;
  readonly verbose?: boolean;
  readonly connection?: HarnessConnectionOptions;
  /** Where the summary goes (default stderr). */
  readonly log?: (line: string) => void;
}

/** Loads, runs and reports one flow; returns the report (exit code: report.passed ? 0 : 1). */
export async function runFlowFile(options: FlowCommandOptions): Promise<FlowReport> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const flow = parseFlowFile(await readFile(options.file, 'utf8'), options.file);
  // The server writes its trace into a folder named here, so that the report can name it.
  const trace = flowTraceFor(options.connection?.env ?? process.env, options.connection?.cwd ?? process.cwd());
  const connection = await connectToHarness({
    ...options.connection,
    env: trace.env,
    onLog: (level, text) => {
      options.connection?.onLog?.(level, text);
      log(`  server ${level}: ${text}`);
    },
  });
  let report: FlowReport;
  try {
    report = { ...(await runFlow(flow, connection.client, { source: options.file })), trace: trace.path };
  } finally {
    await connection.close();
  }
  for (const line of summarizeReport(report)) log(line);
  if (!report.passed || options.verbose) {
    // Blank lines are not a log: the heading is printed only above something to read.
    const tail = connection.stderrTail().filter((line) => line.trim() !== '');
    if (tail.length > 0) {
      log('server log (last lines):');
      for (const line of tail.slice(options.verbose ? 0 : -15)) log(`  ${line}`);
    }
  }
  return report;
}

export async function flowMain(argv: readonly string[]): Promise<number> {
  let file: string;
  let reportFile: string | null;
  let verbose: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { report: { type: 'string' }, verbose: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
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
  } catch (error) {
    process.stderr.write(`flow: ${(error as Error).message}\n\n${FLOW_USAGE}\n`);
    return 2;
  }
  let report: FlowReport;
  try {
    report = await runFlowFile({ file, reportFile, verbose });
  } catch (error) {
    if (error instanceof FlowFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
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
