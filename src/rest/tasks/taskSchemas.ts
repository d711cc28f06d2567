/**
 * The task routes as data and as zod: the paths, the request body (its `flow` is the
 * flow runner's own schema, publishedFlowSchema) and the view GET /task/{id} answers, from which /openapi.json
 * publishes them. The route checks bodies with the flow runner's own validation, not with these.
 */
import { z } from 'zod';
import { MAX_GOAL_CHARS } from '../../application/tasks/goalTask.js';
import { TASK_STATES, type TaskView } from '../../application/tasks/Task.js';
import { publishedFlowSchema } from '../../flow/flowFile.js';

export const TASK_PATH = '/agent/task';
export const TASK_PREFIX = '/task/';
/** Task ids are the runner's UUIDs; anything else is no task, answered without a look-up. */
export const TASK_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TASK_REQUEST_KEYS: readonly string[] = ['device', 'flow', 'goal'];

const device = z.string().describe("The device: a serial adb lists or an allowed emulator's AVD name (GET /devices)");

export const taskRequestSchema = z.union([
  z
    .object({
      device,
      flow: publishedFlowSchema().describe(
        "A flow file's JSON, as in docs/flows/ (the flow runner's own schema); its steps may use the tools of the toolsets the server serves",
      ),
    })
    .strict(),
  z
    .object({
      device,
      goal: z
        .string()
        .min(1)
        .max(MAX_GOAL_CHARS)
        .describe('What to achieve; needs a model endpoint configured, else 503 MODEL_UNAVAILABLE'),
    })
    .strict(),
]);

const taskError = z.object({ code: z.string(), message: z.string() });

export const taskViewSchema = z.object({
  task_id: z.string(),
  kind: z.enum(['flow', 'goal']),
  device: z.string(),
  state: z.enum(TASK_STATES),
  progress: z
    .object({ step: z.number().int(), of: z.number().int() })
    .describe("Steps done, of the flow's steps (a goal: of its step limit)"),
  queue_position: z.number().int().nullable().describe('1 for the next task to run on its device; null unless queued'),
  cancel_requested: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  report: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("When done: the flow runner's report, or the agent loop's outcome"),
  evidence: z.array(
    z.object({
      artifact_id: z.string(),
      url: z.string().describe('GET it with the same token: /artifacts/{artifact_id}'),
    }),
  ),
  error: taskError.nullable().describe("The error that ended the task (the first failed call's)"),
  trace: z
    .object({
      name: z.string().describe("The trace folder under the artifacts directory's traces/"),
      url: z.string().describe('GET it with the same token: the trace viewer page'),
    })
    .nullable()
    .describe("The task's trace (every call it made); null when traces are off"),
});

/** The published view fits the manager's type and names the same keys (checked by the compiler). */
type Published = z.infer<typeof taskViewSchema>;
type SameKeys = [keyof Published] extends [keyof TaskView]
  ? [keyof TaskView] extends [keyof Published]
    ? true
    : false
  : false;
export const viewsAgree: [Published] extends [TaskView] ? SameKeys : false = true;

/** The keys of a tool's envelope: `data` is the task. */
export const taskAnswerSchema = z.object({ ok: z.literal(true), data: taskViewSchema, error: z.null() });
