/**
 * A goal task: the task opens a UI session on its device (ui_session_open {device}), hands
 * the agent loop (GoalRunner) the tools that act inside a UI session and a `callTool` that injects the
 * session's session_id, and closes the session whatever the outcome. The loop never names a device or a
 * session, so it cannot reach any other; a tool outside its list is refused without running.
 */
import type { Envelope } from '../../domain/envelope.js';
import { HarnessError } from '../../domain/errors.js';
import type { GoalLimits, GoalOutcome, GoalRunner, GoalTool } from './GoalRunner.js';
import type { TaskResult, TaskTools, TaskWork } from './Task.js';

export const DEFAULT_GOAL_LIMITS: GoalLimits = Object.freeze({ maxSteps: 30, maxDurationMs: 10 * 60 * 1000 });

/** The longest goal accepted, in characters (it goes to a model, not to the device). */
export const MAX_GOAL_CHARS = 4_000;

export interface GoalTaskDeps {
  readonly runner: GoalRunner | null;
  readonly tools: TaskTools;
  /** What the model is offered (GoalToolCatalog): tools that take session_id, minus session management, session_id not shown. */
  readonly catalog: readonly GoalTool[];
  readonly limits: GoalLimits;
}

/** The work of `{device, goal}`; MODEL_UNAVAILABLE at once when no agent loop is configured. */
export function goalWork(device: string, goal: string, deps: GoalTaskDeps): TaskWork {
  const { runner } = deps;
  if (runner === null) {
    throw new HarnessError(
      'MODEL_UNAVAILABLE',
      'A goal task needs a model endpoint and none is configured on this server: configure one (docs/reference/configuration.md, "Goal tasks"), or send {"device", "flow"} with the steps written out.',
    );
  }
  return {
    kind: 'goal',
    device,
    stepsTotal: deps.limits.maxSteps,
    run: async ({ signal, progress }) => {
      const opened = await deps.tools.call('ui_session_open', { device });
      const sessionId = opened.data.session_id;
      if (!opened.ok || typeof sessionId !== 'string') {
        return failedBefore(goal, opened);
      }
      const allowed = new Set(deps.catalog.map((tool) => tool.name));
      const callTool = (name: string, args: Readonly<Record<string, unknown>>): Promise<Envelope> => {
        if (!allowed.has(name)) {
          return deps.tools.refuse(
            name,
            'INVALID_ARGUMENT',
            `${JSON.stringify(name.slice(0, 64))} is not one of this task's tools: call one of ${[...allowed].join(', ')}.`,
          );
        }
        // The task's own UI session, whatever the model sent: it cannot name another session.
        return deps.tools.call(name, { ...args, session_id: sessionId });
      };
      let outcome: GoalOutcome;
      try {
        outcome = await runner.run({
          goal,
          tools: deps.catalog,
          callTool,
          limits: deps.limits,
          signal,
          onStep: (step) => {
            progress(step.n, deps.limits.maxSteps);
          },
        });
      } finally {
        await deps.tools.call('ui_session_close', { session_id: sessionId });
      }
      // A goal the model gave up on, or a limit that ended the loop, is in the report (outcome, limit, summary), not an error.
      return {
        passed: outcome.outcome === 'passed',
        report: { goal, device: opened.data.device ?? device, ...outcome },
        artifactIds: outcome.steps.flatMap((step) => (step.artifact_id ? [step.artifact_id] : [])),
        error: null,
      };
    },
  };
}

function failedBefore(goal: string, opened: Envelope): TaskResult {
  const error = opened.error ?? { code: 'INTERNAL_ERROR', message: 'ui_session_open answered no session_id.' };
  return {
    passed: false,
    report: { goal, outcome: 'failed', summary: `The UI session could not be opened: ${error.message}`, steps: [] },
    artifactIds: [],
    error: { code: error.code, message: error.message },
  };
}
