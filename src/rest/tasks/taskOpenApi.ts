/**
 * The task routes in /openapi.json, from the zod schemas of taskSchemas.ts, which
 * take the flow runner's own schema for `flow` (publishedFlowSchema).
 */
import { component } from '../openApi.js';
import { TASK_PATH, TASK_PREFIX, taskAnswerSchema, taskRequestSchema } from './taskSchemas.js';

const ANSWER = { 'application/json': { schema: { $ref: '#/components/schemas/TaskAnswer' } } };
const REFUSAL = { 'application/json': { schema: { $ref: '#/components/schemas/Refusal' } } };
const UNAUTHORIZED = { description: 'No or wrong bearer token' };
const TASK_ID = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The task_id POST /agent/task answered',
  schema: { type: 'string' },
};
const UNKNOWN = {
  description:
    'NOT_FOUND: no task has this id (finished tasks are kept a limited time and number; none survives a restart)',
  content: REFUSAL,
};

export const taskComponents = (): Record<string, unknown> => ({
  TaskRequest: component(taskRequestSchema, 'input'),
  TaskAnswer: component(taskAnswerSchema),
});

export function taskPaths(): Record<string, Record<string, unknown>> {
  return {
    [TASK_PATH]: {
      post: {
        operationId: 'startTask',
        summary: 'Run a flow (or a goal, with a model configured) on a device in the background; answers at once',
        tags: ['tasks'],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskRequest' } } },
        },
        responses: {
          202: {
            description: 'Queued (or already running): `data` is the task; poll GET /task/{data.task_id}',
            content: ANSWER,
          },
          400: {
            description:
              'INVALID_ARGUMENT: the body, the device name or the flow is not valid (a flow: every problem at once, by its step number)',
            content: REFUSAL,
          },
          409: { description: 'EMULATOR_BUSY: too many tasks already wait for this device', content: REFUSAL },
          503: {
            description:
              'MODEL_UNAVAILABLE: a goal and no model endpoint configured; EMULATOR_UNAVAILABLE: no allowed online device has this name',
            content: REFUSAL,
          },
          401: UNAUTHORIZED,
          413: { description: 'Body over 1 MB' },
        },
      },
    },
    [`${TASK_PREFIX}{id}`]: {
      get: {
        operationId: 'getTask',
        summary: 'A task: state, progress, and when done its report and evidence links',
        tags: ['tasks'],
        parameters: [TASK_ID],
        responses: { 200: { description: 'The task', content: ANSWER }, 404: UNKNOWN, 401: UNAUTHORIZED },
      },
      delete: {
        operationId: 'cancelTask',
        summary:
          'Cancel a task; answers once it has stopped (its UI session closed), or with cancel_requested after 20 s',
        tags: ['tasks'],
        parameters: [TASK_ID],
        responses: {
          200: { description: 'The task, cancelled (a finished task is left as it was)', content: ANSWER },
          404: UNKNOWN,
          401: UNAUTHORIZED,
        },
      },
    },
    [`${TASK_PREFIX}{id}/trace`]: {
      get: {
        operationId: 'getTaskTrace',
        summary: "The task's trace as the viewer page (one self-contained HTML page: every call with its screenshots)",
        tags: ['tasks'],
        parameters: [TASK_ID],
        responses: {
          200: { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } },
          404: {
            ...UNKNOWN,
            description:
              'NOT_FOUND: no task has this id, traces are off, or its trace was removed (ANDROID_MCP_TRACE_KEEP, ANDROID_MCP_TRACE_MAX_MB)',
          },
          401: UNAUTHORIZED,
        },
      },
    },
  };
}
