import type { OperationResult, OperationRunner } from '../application/OperationRunner.js';
import { NO_TRACE, type CallRecorder } from '../application/trace/TraceRecorder.js';
import { checkArgumentNames } from '../domain/validation.js';
import type { PreparedCall, ToolDefinition, ToolFacts } from './ToolDefinition.js';

/**
 * One tool call through the one error boundary: what tools/call runs, and what the REST mirror
 * runs for the same capability (src/rest/), so both answer the same envelope, byte for byte.
 * The argument names are checked first (docs/reference/contract.md, "Order of checks in every call"): a name
 * the tool does not declare is refused before the tool's own validation, the gate, adb or Appium.
 * Then every value is parsed by the tool's declared arguments, still before anything is reached;
 * a refusal of either becomes the call's envelope in the runner. Every call, whoever made it,
 * is one line of the caller's trace (`trace`: the MCP session's, or a task's).
 */
export async function runTool(
  runner: OperationRunner,
  tool: ToolDefinition,
  args: Readonly<Record<string, unknown>>,
  trace: CallRecorder = NO_TRACE,
): Promise<OperationResult> {
  const call = trace.begin(tool.name, args);
  const prepared = prepare(tool, args);
  const result = await runner.run(
    tool.name,
    (context) => ('refusal' in prepared ? Promise.reject(prepared.refusal) : prepared.run(context)),
    'refusal' in prepared ? undefined : prepared.sessionId,
  );
  call.end(result);
  return result;
}

/** The parsed call, or what refused it (thrown inside the runner, so it becomes the envelope). */
function prepare(
  tool: ToolDefinition,
  args: Readonly<Record<string, unknown>>,
): PreparedCall | { readonly refusal: unknown } {
  try {
    checkArgumentNames(args, declaredArguments(tool), tool.name);
    return tool.prepare(args);
  } catch (refusal) {
    return { refusal };
  }
}

/** The argument names a tool declares: its input schema's keys, what tools/list shows the model. */
export function declaredArguments(tool: ToolFacts): string[] {
  return Object.keys(tool.inputSchema.shape);
}
