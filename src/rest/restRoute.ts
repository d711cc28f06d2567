/**
 * The REST mirror, mounted by the HTTP server beside `/mcp`, behind the same Host,
 * Origin and bearer checks and the same body bound (HttpServer runs them before any route).
 * Each operation runs its MCP tool through runTool, the very call tools/call makes: the same
 * domain validation, guards, gate and envelope; only the HTTP status is added (httpStatus.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationResult, OperationRunner } from '../application/OperationRunner.js';
import type { CallRecorder } from '../application/trace/TraceRecorder.js';
import { HarnessError } from '../domain/errors.js';
import { checkArgumentNames } from '../domain/validation.js';
import type { ArtifactReader } from '../mcp/artifactResource.js';
import { declaredArguments, runTool } from '../mcp/runTool.js';
import type { ToolDefinition } from '../mcp/ToolDefinition.js';
import type { HttpRoute } from '../transports/http/HttpServer.js';
import { sendArtifact } from './artifactDownload.js';
import type { DeviceIds } from './deviceIds.js';
import { statusForEnvelope } from './httpStatus.js';
import { openApiDocument, type OpenApiExtra } from './openApi.js';
import { ARTIFACTS_PREFIX, OPENAPI_PATH, REST_OPERATIONS, matchPath, type RestOperation } from './operations.js';
import { BodyTooLarge, readBody } from '../transports/http/readBody.js';
import { describeJsonPath, pathPastDepth, tooDeepMessage } from '../transports/jsonDepth.js';
import { methodNotAllowed, sendJson } from './sendJson.js';

export interface RestMirrorOptions {
  /** Tool definitions by name; the mirror needs those REST_OPERATIONS name, whatever toolsets are on. */
  readonly tools: readonly ToolDefinition[];
  readonly runner: OperationRunner;
  /** The server session's trace: a REST call is a line of it, as a tools/call is. */
  readonly trace?: CallRecorder;
  readonly artifacts: ArtifactReader;
  readonly devices: DeviceIds;
  readonly version: string;
  readonly maxBodyBytes: number;
  /** The task routes (POST /agent/task, GET|DELETE /task/{id}), published in the same /openapi.json. */
  readonly tasks?: HttpRoute & { readonly openApi: OpenApiExtra };
}

function isMirrorPath(pathname: string): boolean {
  return (
    pathname === '/devices' ||
    pathname.startsWith('/devices/') ||
    pathname.startsWith(ARTIFACTS_PREFIX) ||
    pathname === OPENAPI_PATH
  );
}

export function restRoute(options: RestMirrorOptions): HttpRoute {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const operations = REST_OPERATIONS.map((operation) => {
    const tool = byName.get(operation.tool);
    if (!tool) throw new Error(`the REST mirror needs the tool ${operation.tool}`);
    return { operation, tool };
  });
  // Generated once: the schemas do not change while the server runs.
  const openApi = JSON.stringify(openApiDocument(operations, options.version, options.tasks?.openApi));
  const { tasks } = options;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const { pathname } = url;
    const method = req.method ?? 'GET';
    if (tasks?.matches(pathname)) return tasks.handle(req, res);
    if (pathname === OPENAPI_PATH || pathname.startsWith(ARTIFACTS_PREFIX)) {
      if (method !== 'GET') return methodNotAllowed(res, 'GET');
      if (pathname === OPENAPI_PATH) return sendJson(res, 200, openApi);
      return sendArtifact(options.artifacts, pathname.slice(ARTIFACTS_PREFIX.length), res);
    }
    const candidates = operations.filter(({ operation }) => matchPath(operation.path, pathname) !== null);
    const found = candidates.find(({ operation }) => operation.method === method);
    if (!found) {
      if (candidates.length > 0)
        return methodNotAllowed(res, candidates.map(({ operation }) => operation.method).join(', '));
      return sendJson(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: `Not found: ${REST_HINT}` } });
    }
    const { operation, tool } = found;
    const params = matchPath(operation.path, pathname) ?? {};
    let args: Record<string, unknown>;
    try {
      args = await argumentsOf(operation, req, url, options.maxBodyBytes);
      // The body's keys before the device is looked up (validation first), as runTool checks them
      // again for every transport: no coordinates, no unknown names.
      checkArgumentNames(args, declaredArguments(tool), tool.name);
    } catch (error) {
      // HttpServer answers 413 and discards the rest of the body.
      if (error instanceof BodyTooLarge) throw error;
      return answer(res, await failWith(options.runner, tool, error));
    }
    if (params.id === undefined) return answer(res, await runTool(options.runner, tool, args, options.trace));
    const device = decodeSegment(params.id);
    const refusal = await options.devices.refusal(device);
    // 404 whatever the code: the path names something this server does not have.
    if (refusal) return answer(res, await failWith(options.runner, tool, refusal), 404);
    return answer(res, await options.devices.on(device, () => runTool(options.runner, tool, args, options.trace)));
  };

  return { matches: (pathname) => isMirrorPath(pathname) || tasks?.matches(pathname) === true, handle };
}

const REST_HINT =
  'the REST API has GET /devices, GET /devices/{id}, GET /devices/{id}/tree, POST /devices/{id}/{tap|type|scroll|back|screenshot|launch}, GET /artifacts/{id}, POST /agent/task, GET|DELETE /task/{id} and GET /openapi.json; MCP is at /mcp.';

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The tool's arguments: the JSON object of the body (empty body: none), or for a GET the query
 * string, where `true`/`false`, whole numbers and `{…}` objects are read as JSON would carry them and anything
 * else stays a string, so the tool's own validation refuses it with its own message.
 */
async function argumentsOf(
  operation: RestOperation,
  req: IncomingMessage,
  url: URL,
  maxBodyBytes: number,
): Promise<Record<string, unknown>> {
  if (operation.input === 'query') {
    const args: Record<string, unknown> = {};
    for (const [key, value] of url.searchParams)
      args[key] =
        value === 'true'
          ? true
          : value === 'false'
            ? false
            : /^\d{1,15}$/.test(value)
              ? Number(value)
              : objectOrText(value);
    return args;
  }
  const body = operation.method === 'POST' ? await readBody(req, maxBodyBytes) : Buffer.alloc(0);
  const text = body.toString('utf8').trim();
  if (operation.input === 'none' || text === '') {
    if (text !== '')
      throw new HarnessError(
        'INVALID_ARGUMENT',
        `Invalid request: ${operation.method} ${operation.path} takes no body.`,
      );
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      "Invalid request body: it is not JSON. Send a JSON object of the tool's arguments (see /openapi.json).",
    );
  }
  // Before the trace, the tool or anything else recursive sees it (jsonDepth.ts).
  const deep = pathPastDepth(parsed);
  if (deep) throw new HarnessError('INVALID_ARGUMENT', `Invalid request body: ${tooDeepMessage(bodyWhat(deep))}`);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      "Invalid request body: send a JSON object of the tool's arguments (see /openapi.json).",
    );
  }
  return parsed as Record<string, unknown>;
}

/** A JSON object in the query (`within={"ref":"e5"}`) as the object; anything else stays the string it is. */
function objectOrText(value: string): unknown {
  if (!value.startsWith('{')) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  const deep = pathPastDepth(parsed);
  if (deep)
    throw new HarnessError('INVALID_ARGUMENT', `Invalid query: ${tooDeepMessage(describeJsonPath(deep, 'The value'))}`);
  return parsed;
}

/** An argument of the body named as such (`the argument "selector"`), the body itself by its path. */
function bodyWhat(path: readonly (string | number)[]): string {
  return path.length === 0
    ? 'The body'
    : `The argument ${JSON.stringify(String(path[0]).slice(0, 64))} (${describeJsonPath(path, '')})`;
}

/** A failure before the tool ran, still as the tool's envelope (its own operation id, through the runner). */
function failWith(runner: OperationRunner, tool: ToolDefinition, error: unknown): Promise<OperationResult> {
  return runner.run(tool.name, () => Promise.reject(error));
}

/** The envelope as tools/call's text block carries it (JSON.stringify of the same object), with its status. */
function answer(res: ServerResponse, result: OperationResult, status?: number): void {
  sendJson(res, status ?? statusForEnvelope(result.envelope), JSON.stringify(result.envelope));
}
