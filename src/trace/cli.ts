/**
 * `android-mcp-harness trace view DIR` and `trace export DIR --format flow|wdio [--out FILE]`:
 * the viewer page and the replays of a trace folder (docs/reference/contract.md, "Traces"). Each prints the path
 * of what it wrote on stdout (this CLI's output); warnings and errors go to stderr.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { flowOf, replayOf, TraceExportError, WDIO_STEP_TOOLS, wdioOf } from './exportTrace.js';
import { wdioRunLines } from './export/wdioRun.js';
import { readTrace, TraceReadError } from './readTrace.js';
import { writeViewer } from './viewer.js';

export const TRACE_USAGE = `Usage: android-mcp-harness trace view DIR
       android-mcp-harness trace export DIR --format flow|wdio [--out FILE]

DIR is a trace folder: <artifacts>/traces/<name> (a flow report and a task name theirs).
  view     Writes DIR/index.html, one self-contained page (open it in a browser, no network
           needed): each call with its screenshots, target, answer, time and the summary read.
  export   Writes the trace's successful actions as a flow file (--format flow, default
           DIR/flow.json; run it with android-mcp-harness flow) or a WebdriverIO mocha test
           (--format wdio, default DIR/replay.test.mjs). Refs become the selectors the server
           recorded for the element acted on; reads and failed calls are left out (each failed
           call named); typed text, never kept in a trace, becomes a named input of the flow
           (--input NAME=VALUE or ANDROID_MCP_INPUT_<NAME> when it runs).`;

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

export async function traceMain(argv: readonly string[]): Promise<number> {
  let values: { format?: string; out?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    }));
  } catch (error) {
    say(`trace: ${(error as Error).message}\n\n${TRACE_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${TRACE_USAGE}\n`); // stdout-ok: CLI help
    return 0;
  }
  const [command, dir, ...extra] = positionals;
  if ((command !== 'view' && command !== 'export') || dir === undefined || extra.length > 0) {
    say(`trace: give view or export and one trace folder\n\n${TRACE_USAGE}`);
    return 2;
  }
  try {
    if (command === 'view') {
      if (values.format !== undefined || values.out !== undefined)
        throw new UsageError('view takes no --format or --out');
      const file = writeViewer(dir);
      process.stdout.write(`${path.resolve(file)}\n`); // stdout-ok: the page this CLI wrote
      return 0;
    }
    const format = values.format ?? 'flow';
    if (format !== 'flow' && format !== 'wdio')
      throw new UsageError(`--format is flow or wdio, not ${JSON.stringify(format.slice(0, 20))}`);
    const trace = readTrace(dir);
    const replay = replayOf(trace, format === 'wdio' ? WDIO_STEP_TOOLS : undefined);
    const out = values.out ?? path.join(dir, format === 'flow' ? 'flow.json' : 'replay.test.mjs');
    writeFileSync(
      out,
      format === 'flow'
        ? `${JSON.stringify(flowOf(trace, replay), null, 2)}\n`
        : wdioOf(trace, replay, wdioRunLines(Object.keys(replay.inputs))),
    );
    for (const warning of replay.warnings) say(`trace export: ${warning}`);
    process.stdout.write(`${path.resolve(out)}\n`); // stdout-ok: the file this CLI wrote
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      say(`trace: ${error.message}\n\n${TRACE_USAGE}`);
      return 2;
    }
    if (error instanceof TraceReadError || error instanceof TraceExportError) {
      say(`trace: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

class UsageError extends Error {}
