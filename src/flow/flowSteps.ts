/**
 * Which tools a flow's step may name (docs/guide/usage.md, "Reference flows"): every tool that acts
 * inside a UI session (it takes session_id, the runner injects it) and does not manage that session,
 * plus the waiting tools, of a toolset the server that runs the flow serves.
 *
 * Observers are not steps *(decision)*: a flow asserts by acting, a step that only reads changes
 * nothing and checks nothing, and the runner already reads the screen before and after the steps
 * while every action leaves its screenshot. Waiting is the exception: ui_wait fails the flow when
 * what it waits for does not come, which is the check a flow needs between two actions.
 */
import { toolsForChecking } from '../mcp/checkCall.js';
import { runsInSession } from '../mcp/tasks/taskTools.js';
import type { ToolFacts } from '../mcp/ToolDefinition.js';
import { TOOLSET_NAMES, type ToolsetName } from '../domain/toolsets.js';

/** Observers that are steps all the same: their answer passes or fails the flow. */
const WAITING_TOOLS: ReadonlySet<string> = new Set(['ui_wait']);

/** What the loader needs to know of the server that will run the flow. */
export interface FlowCheckOptions {
  /** The toolsets it serves (`core` among them). */
  readonly toolsets: readonly ToolsetName[];
  /** How to turn a toolset on where the flow runs, e.g. "run the flow with --toolsets wait". */
  readonly enable: (toolset: ToolsetName) => string;
}

export function isStepTool(tool: ToolFacts): boolean {
  return runsInSession(tool) && (!tool.annotations.readOnlyHint || WAITING_TOOLS.has(tool.name));
}

/** The step tools of the given toolsets, in catalogue order. */
export function stepToolNames(toolsets: readonly ToolsetName[]): string[] {
  return [...toolsForChecking().values()]
    .filter((tool) => isStepTool(tool) && toolsets.includes(tool.toolset))
    .map((tool) => tool.name);
}

/** Why `tool` cannot be a step here, or null when it can. `name` is what the file says. */
export function stepToolProblem(name: string, tool: ToolFacts | undefined, options: FlowCheckOptions): string | null {
  if (tool === undefined) {
    const on = stepToolNames(options.toolsets);
    const off = stepToolNames(TOOLSET_NAMES).filter((candidate) => !on.includes(candidate));
    return `there is no tool '${name.slice(0, 64)}'; a step is one of ${on.join(', ')}${off.length > 0 ? ` (with more toolsets on, also ${off.join(', ')})` : ''}`;
  }
  if (tool.name === 'ui_session_open' || tool.name === 'ui_session_close') {
    return `${tool.name} is not a step: the runner opens the UI session before the steps and closes it after them`;
  }
  if (tool.annotations.readOnlyHint && !WAITING_TOOLS.has(tool.name)) {
    return (
      `${tool.name} is not a step: it only reads, and the runner already reads the screen before and after the steps ` +
      `(every action leaves its screenshot); to wait for an element, or check that it is there, use ui_wait`
    );
  }
  if (!isStepTool(tool)) {
    return `${tool.name} is not a step: it takes no session_id, so it cannot run inside the UI session that holds the device`;
  }
  if (!options.toolsets.includes(tool.toolset)) {
    return `${tool.name} belongs to the toolset '${tool.toolset}', which is off: ${options.enable(tool.toolset)}`;
  }
  return null;
}
