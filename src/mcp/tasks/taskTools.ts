/**
 * What a task calls: the tools' own definitions through runTool, the very handler
 * tools/call and the REST mirror run, so a task's call is the same call with the same envelope;
 * and the catalogue a goal's model is offered, from the same zod schemas tools/list publishes.
 */
import type { OperationRunner } from '../../application/OperationRunner.js';
import type { CallRecorder } from '../../application/trace/TraceRecorder.js';
import type { GoalTool } from '../../application/tasks/GoalRunner.js';
import type { TaskTools } from '../../application/tasks/Task.js';
import { HarnessError } from '../../domain/errors.js';
import { runTool } from '../runTool.js';
import { toInputJsonSchema } from '../schemas.js';
import type { ToolDefinition, ToolFacts } from '../ToolDefinition.js';

/** The task opens and closes its UI session itself; the model never manages sessions. */
const SESSION_TOOLS: ReadonlySet<string> = new Set(['ui_session_open', 'ui_session_close']);

/** A tool that runs inside a UI session someone else opened: it takes session_id and does not manage sessions. */
export function runsInSession(tool: ToolFacts): boolean {
  return Object.hasOwn(tool.inputSchema.shape, 'session_id') && !SESSION_TOOLS.has(tool.name);
}

export function taskToolsFor(
  runner: OperationRunner,
  tools: readonly ToolDefinition[],
  trace?: CallRecorder,
): TaskTools {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const refuse = async (name: string, code: 'INVALID_ARGUMENT', message: string) =>
    (await runner.run(name.slice(0, 64), () => Promise.reject(new HarnessError(code, message)))).envelope;
  return {
    call: async (name, args) => {
      const tool = byName.get(name);
      if (!tool) return refuse(name, 'INVALID_ARGUMENT', `There is no tool ${JSON.stringify(name.slice(0, 64))}.`);
      return (await runTool(runner, tool, args, trace)).envelope;
    },
    refuse,
  };
}

/**
 * The tools a goal's model may call: those of the served catalogue that act inside a UI session (they
 * take session_id), minus session management, with session_id left out of the schema (the task
 * injects its own session's).
 */
export function goalCatalog(tools: readonly ToolDefinition[]): readonly GoalTool[] {
  return tools.filter(runsInSession).map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: toInputJsonSchema(tool.inputSchema.omit({ session_id: true })),
  }));
}
