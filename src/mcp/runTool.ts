import type { OperationResult, OperationRunner } from '../application/OperationRunner.js';
import { NO_TRACE, type CallRecorder } from '../application/trace/TraceRecorder.js';
import { checkArgumentNames } from '../domain/validation.js';
import type { ToolDefinition } from './ToolDefinition.js';

/**
 * One tool call through the one error boundary: what tools/call runs, and what the REST mirror
 * runs for the same capability (src/rest/), so both answer the same envelope, byte for byte.
 * The argument names are checked first (docs/reference/contract.md, "Order of checks in every call"): a name the tool does not declare is
 * refused before the tool's own validation, the gate, adb or Appium. Every call, whoever made it,
 * is one line of the caller's trace (`trace`: the MCP session's, or a task's).
 */
export async function runTool(
  runner: OperationRunner,
  tool: ToolDefinition,
  args: Readonly<Record<string, unknown>>,
  trace: CallRecorder = NO_TRACE,
): Promise<OperationResult> {
  const sessionId = typeof args.session_id === 'string' ? args.session_id : undefined;
  const call = trace.begin(tool.name, args);
  const result = await runner.run(
    tool.name,
    (context) => {
      checkArgumentNames(args, declaredArguments(tool), tool.name);
      return tool.execute(args, context);
    },
    sessionId,
  );
  call.end(result);
  return result;
}

/** The argument names a tool declares: its input schema's keys, what tools/list shows the model. */
export function declaredArguments(tool: ToolDefinition): string[] {
  return Object.keys(tool.inputSchema.shape);
}
