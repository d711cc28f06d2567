/**
 * `/openapi.json`: OpenAPI 3.1, generated at start from the very zod schemas the
 * tools publish over MCP (toInputJsonSchema, zod v4's own z.toJSONSchema: its default dialect,
 * JSON Schema 2020-12, is the one OpenAPI 3.1 uses), so the document cannot drift from the tools.
 * Nothing here is a schema written by hand except the envelope's, which is zod too.
 */
import { z } from 'zod';
import { OPERATION_ID_PATTERN } from '../domain/envelope.js';
import { ERROR_CODES } from '../domain/errors.js';
import { toInputJsonSchema } from '../mcp/schemas.js';
import type { ToolDefinition } from '../mcp/ToolDefinition.js';
import { STATUS_BY_ERROR_CODE } from './httpStatus.js';
import type { RestOperation } from './operations.js';

/** The envelope every operation answers (docs/reference/contract.md, "Tools", gives each tool's `data`). */
const envelopeSchema = z
  .object({
    ok: z.boolean(),
    operation_id: z
      .string()
      .regex(OPERATION_ID_PATTERN)
      .describe('12 lowercase Crockford base32 characters, fresh for every call: names the call in the server log'),
    tool: z.string(),
    data: z.record(z.string(), z.unknown()),
    evidence: z
      .object({ artifact_id: z.string() })
      .nullable()
      .describe('The evidence PNG: GET /artifacts/{artifact_id}'),
    error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).nullable(),
  })
  .describe('The envelope of the MCP tool of the same name, byte for byte as tools/call answers it');

/** A refusal that is not a tool's (an artifact read, an unknown path, a wrong method). */
const refusalSchema = z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) });

/** A zod schema as an OpenAPI component (JSON Schema 2020-12 without its `$schema`); `input` for request bodies. */
export function component(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return json;
}

const ENVELOPE_REF = { $ref: '#/components/schemas/Envelope' };
const REFUSAL_REF = { $ref: '#/components/schemas/Refusal' };

function statusDescription(status: number): string {
  const codes = ERROR_CODES.filter((code) => STATUS_BY_ERROR_CODE[code] === status);
  return `Failed envelope: ${codes.join(', ')}`;
}

function envelopeResponses(): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    200: { description: 'ok: true', content: { 'application/json': { schema: ENVELOPE_REF } } },
  };
  const statuses = [...new Set(Object.values(STATUS_BY_ERROR_CODE))].sort((a, b) => a - b);
  for (const status of statuses) {
    responses[status] = {
      description: statusDescription(status),
      content: { 'application/json': { schema: ENVELOPE_REF } },
    };
  }
  // An {id} no allowed online device has is also 404 (EMULATOR_UNAVAILABLE in the envelope).
  responses[404] = {
    description: `${statusDescription(404)}; or {id} names no allowed online device (EMULATOR_UNAVAILABLE); a session_id of a UI session on another device (INVALID_UI_SESSION)`,
    content: { 'application/json': { schema: ENVELOPE_REF } },
  };
  responses[401] = { description: 'No or wrong bearer token' };
  responses[413] = { description: 'Body over 1 MB' };
  return responses;
}

const DEVICE_ID = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The device the call runs on: its adb serial (GET /devices) or an emulator's AVD name",
  schema: { type: 'string' },
};

function operationObject(operation: RestOperation, tool: ToolDefinition): Record<string, unknown> {
  const input = toInputJsonSchema(tool.inputSchema);
  const parameters: unknown[] = operation.path.includes('{id}') ? [DEVICE_ID] : [];
  const object: Record<string, unknown> = {
    operationId: operation.operationId,
    summary: operation.summary,
    description: `${tool.description}\n\nThe MCP tool \`${tool.name}\`, same arguments, same envelope.`,
    tags: [tool.annotations.readOnlyHint ? 'observe' : 'act'],
    responses: envelopeResponses(),
  };
  if (operation.input === 'query') {
    const properties = (input.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [name, schema] of Object.entries(properties)) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: 'query',
        required: false,
        ...(description === undefined ? {} : { description }),
        schema: rest,
      });
    }
  }
  if (operation.input === 'body') {
    const required = Array.isArray(input.required) && input.required.length > 0;
    object.requestBody = {
      required,
      content: { 'application/json': { schema: { ...input, additionalProperties: false } } },
    };
  }
  if (parameters.length > 0) object.parameters = parameters;
  return object;
}

/** More routes on the same server (tasks): their paths and component schemas. */
export interface OpenApiExtra {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly schemas: Record<string, unknown>;
}

export function openApiDocument(
  operations: readonly { readonly operation: RestOperation; readonly tool: ToolDefinition }[],
  version: string,
  extra: OpenApiExtra = { paths: {}, schemas: {} },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { operation, tool } of operations) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method.toLowerCase()]: operationObject(operation, tool),
    };
  }
  paths['/artifacts/{id}'] = {
    get: {
      operationId: 'getArtifact',
      summary: 'An evidence PNG by its artifact_id (the artifact:// resource over HTTP)',
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: '`evidence.artifact_id` of an answer, exactly as given',
          schema: { type: 'string', pattern: '^\\d{8}-\\d{6}-\\d{6}-[a-z0-9-]{1,40}\\.png$' },
        },
      ],
      responses: {
        200: {
          description: 'The PNG',
          content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
        },
        400: {
          description: 'INVALID_ARGUMENT: not an id the harness issues (refused before the file system)',
          content: { 'application/json': { schema: REFUSAL_REF } },
        },
        404: {
          description:
            'ARTIFACT_NOT_FOUND: no such file in the evidence directory (never written, or removed by the retention bound)',
          content: { 'application/json': { schema: REFUSAL_REF } },
        },
        401: { description: 'No or wrong bearer token' },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'android-mcp-harness REST mirror',
      version,
      description:
        'The MCP tools of android-mcp-harness over plain HTTP: each operation calls its tool and answers its envelope (docs/reference/contract.md, "The REST mirror").',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths: { ...paths, ...extra.paths },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'ANDROID_MCP_HTTP_TOKEN, or the token file the server named at start',
        },
      },
      schemas: { Envelope: component(envelopeSchema), Refusal: component(refusalSchema), ...extra.schemas },
    },
  };
}
