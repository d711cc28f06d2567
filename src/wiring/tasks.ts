/**
 * Tasks (`POST /tasks` of the REST mirror): the manager that queues them one lane per device, the
 * tools they call (every tool, the same definitions the MCP server runs), and what a `{goal}` task's
 * agent loop is offered.
 */
import type { DeviceBindings } from '../application/devices/DeviceBindings.js';
import type { DeviceResolver } from '../application/devices/DeviceResolver.js';
import type { OperationRunner } from '../application/OperationRunner.js';
import type { GoalRunner } from '../application/tasks/GoalRunner.js';
import type { GoalTaskDeps } from '../application/tasks/goalTask.js';
import type { TaskTools } from '../application/tasks/Task.js';
import { TaskManager } from '../application/tasks/TaskManager.js';
import type { Traces } from '../application/trace/Traces.js';
import type { HarnessConfig } from '../config.js';
import type { Clock, Logger, RandomSource } from '../domain/ports.js';
import type { FlowCheckOptions } from '../flow/flowSteps.js';
import { goalCatalog, taskToolsFor } from '../mcp/tasks/taskTools.js';
import type { ToolDefinition } from '../mcp/ToolDefinition.js';

export interface ContainerTasks {
  readonly manager: TaskManager;
  readonly tools: TaskTools;
  /** The tools of one new task, each call a line of the task's own trace (null when traces are off). */
  traced(): { readonly tools: TaskTools; readonly trace: string | null };
  readonly goal: Omit<GoalTaskDeps, 'tools'>;
  /** A flow task's steps may use the tools of the toolsets this server serves. */
  readonly flowCheck: FlowCheckOptions;
}

export interface TaskParts {
  readonly config: HarnessConfig;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly logger: Logger;
  readonly resolver: DeviceResolver;
  readonly bindings: DeviceBindings;
  readonly runner: OperationRunner;
  /** Every tool, whatever the toolsets, as the REST mirror: a task is not sent a catalogue. */
  readonly everyTool: readonly ToolDefinition[];
  /** The tools the MCP server serves (the configured toolsets'). */
  readonly served: readonly ToolDefinition[];
  readonly traces: Traces;
  /** Runs `{goal}` tasks; null when no model is configured: such a task is refused. */
  readonly goalRunner: GoalRunner | null;
}

export function createTasks(parts: TaskParts): ContainerTasks {
  const { config, runner, everyTool, bindings, resolver } = parts;
  return {
    // One lane per device identity, as for the gate and the lock: two serials of one emulator queue together.
    manager: new TaskManager(
      parts.clock,
      parts.random,
      parts.logger,
      async (name) => (await bindings.forSerial(await resolver.resolve(name))).identity.key,
    ),
    tools: taskToolsFor(runner, everyTool),
    traced: () => {
      const trace = parts.traces.open('task');
      return { tools: taskToolsFor(runner, everyTool, trace ?? undefined), trace: trace?.name ?? null };
    },
    goal: {
      runner: parts.goalRunner,
      // The model is offered the served catalogue's in-session tools, as an MCP client would be.
      catalog: goalCatalog(parts.served),
      limits: { maxSteps: config.agentMaxSteps, maxDurationMs: config.agentTimeoutMs },
    },
    flowCheck: {
      toolsets: config.toolsets,
      enable: (toolset) => `start the server with --toolsets ${toolset} (or ANDROID_MCP_TOOLSETS=${toolset})`,
    },
  };
}
