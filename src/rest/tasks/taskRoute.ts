/**
 * Tasks over HTTP (docs/reference/contract.md, "Tasks"), beside the REST mirror and behind the same
 * Host, Origin, bearer and body checks (HttpServer runs them before any route):
 *   POST /agent/task {device, flow} | {device, goal}  → 202 {ok, data: task, error: null}, the task runs in the background
 *   GET /task/{id}                                    → 200 {ok, data: task, error: null}
 *   DELETE /task/{id}                                 → 200 {ok, data: task, error: null} once it has stopped (bounded)
 *   GET /task/{id}/trace                              → 200 the trace viewer page
 * The answer has the keys every tool's envelope has (`ok`, `data`, `error`), so one client reads both.
 * A flow is checked by the flow runner's own validation (validateFlow) and run by its own code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { parseDeviceName } from '../../application/devices/DeviceResolver.js';
import { MAX_GOAL_CHARS, goalWork, type GoalTaskDeps } from '../../application/tasks/goalTask.js';
import type { TaskTools, TaskView, TaskWork } from '../../application/tasks/Task.js';
import type { TaskManager } from '../../application/tasks/TaskManager.js';
import { HarnessError } from '../../domain/errors.js';
import { FlowFileError, validateFlow } from '../../flow/flowFile.js';
import type { FlowCheckOptions } from '../../flow/flowSteps.js';
import { flowWork } from './flowTask.js';
import { readTrace, TraceReadError } from '../../trace/readTrace.js';
import { viewerHtml } from '../../trace/viewer.js';
import type { HttpRoute } from '../../transports/http/HttpServer.js';
import { STATUS_BY_ERROR_CODE } from '../httpStatus.js';
import { BodyTooLarge, readBody } from '../../transports/http/readBody.js';
import { describeJsonPath, pathPastDepth, tooDeepMessage } from '../../transports/jsonDepth.js';
import { methodNotAllowed, sendJson } from '../sendJson.js';
import { TASK_ID_PATTERN, TASK_PATH, TASK_PREFIX, TASK_REQUEST_KEYS } from './taskSchemas.js';

export interface TaskRouteOptions {
  readonly manager: TaskManager;
  readonly tools: TaskTools;
  /** The tools of one new task, traced into the task's own trace. */
  readonly traced?: () => { readonly tools: TaskTools; readonly trace: string | null };
  readonly goal: Omit<GoalTaskDeps, 'tools'>;
  /** What a flow's steps may use: the server's toolsets, and how to turn one on. */
  readonly flowCheck: FlowCheckOptions;
  readonly clock: { now(): Date; monotonicMs(): number };
  readonly maxBodyBytes: number;
  /** Where the tasks' traces are (`<artifacts>/traces`), for GET /task/{id}/trace. */
  readonly tracesDir?: string;
}

export function isTaskPath(pathname: string): boolean {
  return pathname === TASK_PATH || pathname.startsWith(TASK_PREFIX);
}

export function taskRoute(options: TaskRouteOptions): HttpRoute {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    try {
      if (pathname === TASK_PATH) {
        if (method !== 'POST') return methodNotAllowed(res, 'POST');
        const work = await workOf(await bodyOf(req, options.maxBodyBytes), options);
        const view = await options.manager.submit(work);
        return sendJson(res, 202, taskAnswer(view), { location: `${TASK_PREFIX}${view.task_id}` });
      }
      if (pathname.endsWith(TRACE_SUFFIX)) {
        if (method !== 'GET') return methodNotAllowed(res, 'GET');
        return traceOf(res, pathname.slice(TASK_PREFIX.length, -TRACE_SUFFIX.length), options);
      }
      const id = pathname.slice(TASK_PREFIX.length);
      if (method !== 'GET' && method !== 'DELETE') return methodNotAllowed(res, 'GET, DELETE');
      const view = TASK_ID_PATTERN.test(id)
        ? method === 'GET'
          ? options.manager.view(id)
          : await options.manager.cancel(id)
        : null;
      if (!view) return unknownTask(res);
      return sendJson(res, 200, taskAnswer(view));
    } catch (error) {
      // HttpServer answers 413 and discards the rest of the body.
      if (error instanceof BodyTooLarge) throw error;
      if (error instanceof HarnessError)
        return refuse(res, STATUS_BY_ERROR_CODE[error.code], error.code, error.message);
      throw error;
    }
  };
  return { matches: isTaskPath, handle };
}

async function bodyOf(req: IncomingMessage, maxBodyBytes: number): Promise<Record<string, unknown>> {
  const text = (await readBody(req, maxBodyBytes)).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('the body is not JSON');
  }
  // Before the flow check, the trace or anything else recursive sees it (jsonDepth.ts).
  const deep = pathPastDepth(parsed);
  if (deep) throw invalid(tooDeepMessage(describeJsonPath(deep, 'the body')).replace(/\.$/, ''));
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalid('the body is not a JSON object');
  return parsed as Record<string, unknown>;
}

function invalid(why: string): HarnessError {
  return new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid task: ${why}. Send {"device": "<serial or AVD name>", "flow": {…a flow file…}} or {"device": "…", "goal": "<text>"} (see /openapi.json).`,
  );
}

/**
 * The task the body asks for; every refusal before anything is queued or reaches a device. A flow
 * is checked whole (every step's tool and arguments), so a bad one is a 400 listing every problem.
 */
async function workOf(body: Record<string, unknown>, options: TaskRouteOptions): Promise<TaskWork> {
  const unknown = Object.keys(body).filter((key) => !TASK_REQUEST_KEYS.includes(key));
  if (unknown.length > 0)
    throw invalid(
      `it takes only device and one of flow, goal, not ${unknown.map((key) => JSON.stringify(key.slice(0, 32))).join(', ')}`,
    );
  if (body.device === undefined) throw invalid('"device" is missing');
  const device = parseDeviceName(body.device);
  const hasFlow = body.flow !== undefined;
  const hasGoal = body.goal !== undefined;
  if (hasFlow === hasGoal) throw invalid(hasFlow ? 'give flow or goal, not both' : 'give flow or goal');
  if (hasFlow) {
    try {
      const flow = await validateFlow(body.flow, 'flow', options.flowCheck);
      const { tools, trace } = options.traced?.() ?? { tools: options.tools, trace: null };
      return { ...flowWork(device, flow, tools, options.clock), trace };
    } catch (error) {
      if (error instanceof FlowFileError) throw new HarnessError('INVALID_ARGUMENT', `Invalid task: ${error.message}`);
      throw error;
    }
  }
  const { goal } = body;
  if (typeof goal !== 'string' || goal.trim() === '' || goal.length > MAX_GOAL_CHARS) {
    throw invalid(`"goal" must be a non-empty string of at most ${MAX_GOAL_CHARS} characters`);
  }
  // The model's own refusals (MODEL_UNAVAILABLE) come before a trace is opened.
  goalWork(device, goal, { ...options.goal, tools: options.tools });
  const { tools, trace } = options.traced?.() ?? { tools: options.tools, trace: null };
  return { ...goalWork(device, goal, { ...options.goal, tools }), trace };
}

const TRACE_SUFFIX = '/trace';

/** A task as the envelope's keys carry a tool's answer. */
function taskAnswer(view: TaskView): { ok: true; data: TaskView; error: null } {
  return { ok: true, data: view, error: null };
}

/**
 * The viewer page of the task's trace, made from its folder alone (the page is self-contained: no
 * other file is served, and the id names the folder only through the task's own record).
 */
function traceOf(res: ServerResponse, id: string, options: TaskRouteOptions): void {
  const view = TASK_ID_PATTERN.test(id) ? options.manager.view(id) : null;
  if (!view) return unknownTask(res);
  const gone = (why: string): void => refuse(res, 404, 'NOT_FOUND', `This task has no trace to show: ${why}`);
  if (!view.trace || options.tracesDir === undefined)
    return gone('traces are off on this server (ANDROID_MCP_TRACE=off).');
  let page: string;
  try {
    page = viewerHtml(readTrace(path.join(options.tracesDir, view.trace.name)));
  } catch (error) {
    if (error instanceof TraceReadError)
      return gone(
        'it was removed to keep traces within their bounds (ANDROID_MCP_TRACE_KEEP, ANDROID_MCP_TRACE_MAX_MB).',
      );
    throw error;
  }
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(page),
    'cache-control': 'no-store',
    'content-security-policy':
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  });
  res.end(page);
}

function refuse(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendJson(res, status, { ok: false, error: { code, message } }, headers);
}

function unknownTask(res: ServerResponse): void {
  refuse(
    res,
    404,
    'NOT_FOUND',
    'No task has this id: finished tasks are kept for a limited time and number, and no task survives a server restart. Start it again with POST /agent/task.',
  );
}
