/**
 * The REST mirror's OpenAPI document, served by the real HTTP server on loopback
 * (a fake device behind it: nothing here reaches one), validated by a maintained OpenAPI 3.1
 * validator, and checked to be generated from the tools' own zod schemas.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/domain/errors.js';
import { publishTool } from '../../../src/mcp/HarnessMcpServer.js';
import { allTools } from '../../../src/mcp/tools/index.js';
import { HarnessHttpServer } from '../../../src/transports/http/HttpServer.js';
import { STATUS_BY_ERROR_CODE } from '../../../src/rest/httpStatus.js';
import { REST_OPERATIONS } from '../../../src/rest/operations.js';
import { restMirrorFor } from '../../../src/rest/restMirror.js';
import { buildHarness } from '../../support/fakes/harness.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

const TOKEN = 'unit-rest-token-0123456789';

/** The value at a path of keys in a JSON document (undefined when a step is missing). */
function at(node: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
    node,
  );
}

describe('the REST mirror on the HTTP server', () => {
  const harness = buildHarness();
  const server = new HarnessHttpServer({
    host: '127.0.0.1',
    port: 0,
    policy: { token: TOKEN, allowedHostnames: [], allowedOrigins: [] },
    routes: [restMirrorFor(harness.container.restMirror)],
    logger: new RecordingLogger(),
  });
  let base = '';
  beforeAll(async () => {
    base = `http://127.0.0.1:${await server.listen()}`;
  });
  afterAll(() => server.close());

  const get = (path: string, token = TOKEN) =>
    fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('publishes an OpenAPI 3.1 document the validator accepts, one operation per route, bodies from the tools’ zod schemas', async () => {
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator can fail: the same document with a broken operation is refused.
    const broken = structuredClone(document);
    (at(broken, 'paths', '/devices', 'get') as Record<string, unknown>).responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
    for (const operation of REST_OPERATIONS) {
      expect(at(document, 'paths', operation.path, operation.method.toLowerCase(), 'operationId'), operation.path).toBe(
        operation.operationId,
      );
    }
    expect(at(document, 'paths', '/artifacts/{id}', 'get', 'responses', '200', 'content', 'image/png')).toBeDefined();
    // Tasks: their routes, and a body whose `flow` is the flow runner's own schema.
    expect(at(document, 'paths', '/agent/task', 'post', 'operationId')).toBe('startTask');
    expect(at(document, 'paths', '/task/{id}', 'get', 'operationId')).toBe('getTask');
    expect(at(document, 'paths', '/task/{id}', 'delete', 'operationId')).toBe('cancelTask');
    const flowBody = at(
      document,
      'components',
      'schemas',
      'TaskRequest',
      'anyOf',
      '0',
      'properties',
      'flow',
      'properties',
      'steps',
      'items',
      'properties',
      'tool',
      'enum',
    );
    expect(flowBody).toEqual([
      'app_open',
      'ui_tap',
      'ui_type_text',
      'ui_scroll',
      'device_back',
      'settings_open_apps',
      'app_install',
      'app_stop',
      'app_clear_data',
      'app_open_link',
      'device_key',
      'notifications_open',
      'device_rotate',
      'ui_wait',
    ]);
    expect(
      at(document, 'components', 'schemas', 'TaskAnswer', 'properties', 'data', 'properties', 'state', 'enum'),
    ).toEqual(['queued', 'running', 'passed', 'failed', 'cancelled']);
    // Generated, not hand-written: the tap body is ui_tap's published input schema (no unknown keys).
    const tools = new Map(allTools(harness.container.services).map((tool) => [tool.name, publishTool(tool)]));
    const tapBody = at(
      document,
      'paths',
      '/devices/{id}/tap',
      'post',
      'requestBody',
      'content',
      'application/json',
      'schema',
    );
    expect(tapBody).toEqual({ ...tools.get('ui_tap')!.inputSchema, additionalProperties: false });
    const launchBody = at(document, 'paths', '/devices/{id}/launch', 'post', 'requestBody');
    expect(at(launchBody, 'required')).toBe(true);
    expect(at(launchBody, 'content', 'application/json', 'schema', 'properties')).toEqual(
      tools.get('app_open')!.inputSchema.properties,
    );
    const treeQuery = (
      at(document, 'paths', '/devices/{id}/tree', 'get', 'parameters') as { name: string; in: string }[]
    ).map((p) => `${p.in}:${p.name}`);
    expect(treeQuery).toEqual([
      'path:id',
      'query:include_raw',
      'query:raw_offset',
      'query:include_bounds',
      'query:since',
      'query:within',
      'query:mode',
      'query:session_id',
    ]);
    expect(
      at(
        document,
        'components',
        'schemas',
        'Envelope',
        'properties',
        'error',
        'anyOf',
        '0',
        'properties',
        'code',
        'enum',
      ),
    ).toEqual([...ERROR_CODES]);
    // The operation id's shape is published, so a client's validator refuses anything else.
    const operationId = at(document, 'components', 'schemas', 'Envelope', 'properties', 'operation_id');
    expect(operationId).toMatchObject({ type: 'string', pattern: '^[0-9a-hjkmnp-tv-z]{12}$' });
    expect(at(document, 'components', 'securitySchemes', 'bearer')).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('answers every error code with a status of its family', () => {
    for (const code of ERROR_CODES) {
      const status = STATUS_BY_ERROR_CODE[code];
      if (code.startsWith('INVALID_') && code !== 'INVALID_UI_SESSION') expect(status, code).toBe(400);
      else expect(status, code).toBeGreaterThanOrEqual(404);
    }
    expect(STATUS_BY_ERROR_CODE.OPERATION_TIMEOUT).toBe(504);
    expect(STATUS_BY_ERROR_CODE.EMULATOR_BUSY).toBe(409);
    expect(STATUS_BY_ERROR_CODE.EMULATOR_UNAVAILABLE).toBe(503);
  });

  it('cuts a chunked body at 1 MB while reading it: 413, the tool never runs', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"selector":{"text":"'));
        for (let i = 0; i < 20; i += 1) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}}'));
        controller.close();
      },
    });
    const response = await fetch(`${base}/devices/emulator-5554/tap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/1048576 bytes/);
    expect(harness.automation.log).toEqual([]);
    expect(harness.device.calls).toEqual([]);
  });

  it('is behind the bearer token, /openapi.json included', async () => {
    expect((await get('/openapi.json', '')).status).toBe(401);
    expect((await get('/devices', 'wrong-token-0123456789')).status).toBe(401);
  });
});
