/**
 * The port between tasks and the agent loop that turns a free-text goal into tool calls.
 * The task manager owns the device (it holds a UI session on it) and hands the loop a `callTool` bound to
 * that session; the loop never names a device or a session itself, so it cannot reach another device. The loop
 * is bounded by `limits` and by `signal` (a cancelled task aborts it), and it records every step.
 */
import type { Envelope } from '../../domain/envelope.js';

/** One tool the model may call: its name, what it does, and the JSON Schema of its arguments. */
export interface GoalTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

export interface GoalLimits {
  /** Most tool calls the loop may make. */
  readonly maxSteps: number;
  /** Wall-clock budget of the whole loop, in milliseconds. */
  readonly maxDurationMs: number;
}

/** One recorded step: what the model asked for and what the harness answered (never typed text). */
export interface GoalStep {
  readonly n: number;
  readonly tool: string;
  readonly ok: boolean;
  readonly error_code?: string;
  readonly artifact_id?: string;
  /** The model's short reason for the step, if it gave one (bounded). */
  readonly note?: string;
}

export interface GoalRunRequest {
  readonly goal: string;
  readonly tools: readonly GoalTool[];
  /** Calls one tool on the task's own device, inside the task's UI session; answers the tool's envelope. */
  readonly callTool: (name: string, args: Readonly<Record<string, unknown>>) => Promise<Envelope>;
  readonly limits: GoalLimits;
  readonly signal: AbortSignal;
  /** Called after each step (progress: step n of at most limits.maxSteps). */
  readonly onStep: (step: GoalStep) => void;
}

export interface GoalOutcome {
  /** passed: the model said the goal is met; failed: it gave up, or a limit or an error ended the loop. */
  readonly outcome: 'passed' | 'failed';
  /** The model's final words, or why the loop ended (bounded, no secrets). */
  readonly summary: string;
  readonly steps: readonly GoalStep[];
  /** Set when a limit ended the loop. */
  readonly limit?: 'steps' | 'time';
}

export interface GoalRunner {
  run(request: GoalRunRequest): Promise<GoalOutcome>;
}
