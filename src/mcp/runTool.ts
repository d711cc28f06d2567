import type { OperationResult, OperationRunner } from '../application/OperationRunner.js';
import type { ToolDefinition } from './ToolDefinition.js';

/**
 * One tool call through the one error boundary: what tools/call runs, and what the REST mirror
 * runs for the same capability (src/rest/), so both answer the same envelope, byte for byte.
 */
export function runTool(runner: OperationRunner, tool: ToolDefinition, args: Readonly<Record<string, unknown>>): Promise<OperationResult> {
  return runner.run(tool.name, (context) => tool.execute(args, context));
}
