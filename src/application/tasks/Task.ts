/**
 * Tasks (docs/reference/contract.md, "Tasks"): work on one device that runs in the background of
 * the HTTP server, a flow file's steps or a goal for the agent loop. The manager (TaskManager)
 * knows neither: it queues, runs, cancels and keeps a `TaskWork`, which the boundary builds.
 */
import type { Envelope } from '../../domain/envelope.js';

export const TASK_STATES = ['queued', 'running', 'passed', 'failed', 'cancelled'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export type TaskKind = 'flow' | 'goal';

export interface TaskWorkContext {
  /** Aborted by DELETE /task/{id} (or shutdown): make no further call, close what is open, return. */
  readonly signal: AbortSignal;
  /** Step `step` of `of` is done (a goal's `of` is its step limit: at most that many). */
  progress(step: number, of: number): void;
}

/** A failure that ended the task, as the envelope of the call that failed says it. */
export interface TaskError {
  readonly code: string;
  readonly message: string;
}

export interface TaskResult {
  readonly passed: boolean;
  /** The flow runner's report, or the agent loop's outcome (what GET /task/{id} shows when done). */
  readonly report: Readonly<Record<string, unknown>>;
  /** The artifact ids of the evidence the task's calls left, in call order. */
  readonly artifactIds: readonly string[];
  readonly error: TaskError | null;
}

export interface TaskWork {
  readonly kind: TaskKind;
  /** The device as the client named it (serial or AVD name). */
  readonly device: string;
  /** The folder name of the task's trace (docs/reference/contract.md, "Traces"); null when traces are off. */
  readonly trace?: string | null;
  /** The `of` of the progress before the first step (a flow's steps, a goal's step limit). */
  readonly stepsTotal: number;
  /** Never rejects with a cancellation: it returns what it did; the manager says `cancelled`. */
  run(context: TaskWorkContext): Promise<TaskResult>;
}

/** What GET /task/{id} answers (and POST /agent/task, DELETE /task/{id}). */
export interface TaskView {
  readonly task_id: string;
  readonly kind: TaskKind;
  readonly device: string;
  readonly state: TaskState;
  readonly progress: { readonly step: number; readonly of: number };
  /** 1 for the next task to run on its device; null unless queued. */
  readonly queue_position: number | null;
  /** DELETE was asked while the task ran and it has not stopped yet. */
  readonly cancel_requested: boolean;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly report: Readonly<Record<string, unknown>> | null;
  readonly evidence: readonly { readonly artifact_id: string; readonly url: string }[];
  readonly error: TaskError | null;
  /** The task's trace: its folder's name and the page that shows it (GET /task/{id}/trace); null when traces are off. */
  readonly trace: { readonly name: string; readonly url: string } | null;
}

/**
 * The tools a task calls, through the very handler tools/call and the REST mirror run (runTool),
 * so a task's call answers the same envelope as the same call over MCP.
 */
export interface TaskTools {
  call(name: string, args: Readonly<Record<string, unknown>>): Promise<Envelope>;
  /** The tool's envelope for a call refused before it ran (its own operation id). */
  refuse(name: string, code: 'INVALID_ARGUMENT', message: string): Promise<Envelope>;
}
