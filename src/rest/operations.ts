/**
 * The REST mirror as data: each operation is one MCP tool, called through the same
 * handler (runTool) with the same arguments, so it answers the same envelope. The tool's zod input
 * schema is both what the OpenAPI document publishes and what the body's keys are checked against.
 */
export type RestMethod = 'GET' | 'POST';

export interface RestOperation {
  readonly method: RestMethod;
  /** OpenAPI path template; `{id}` is the device (its adb serial). */
  readonly path: string;
  readonly operationId: string;
  readonly tool: string;
  readonly summary: string;
  /** Where the tool's arguments come from: none, the JSON body, or the query string (GET). */
  readonly input: 'none' | 'body' | 'query';
}

export const REST_OPERATIONS: readonly RestOperation[] = Object.freeze([
  {
    method: 'GET',
    path: '/devices',
    operationId: 'listDevices',
    tool: 'device_list',
    summary: 'Every device adb sees (device_list)',
    input: 'none',
  },
  {
    method: 'GET',
    path: '/devices/{id}',
    operationId: 'getDeviceStatus',
    tool: 'emulator_get_status',
    summary: 'The device and Appium (emulator_get_status)',
    input: 'none',
  },
  {
    method: 'GET',
    path: '/devices/{id}/tree',
    operationId: 'getTree',
    tool: 'ui_get_tree',
    summary: 'Read the screen (ui_get_tree)',
    input: 'query',
  },
  {
    method: 'POST',
    path: '/devices/{id}/tap',
    operationId: 'tap',
    tool: 'ui_tap',
    summary: 'Tap what a selector or ref names, never coordinates (ui_tap)',
    input: 'body',
  },
  {
    method: 'POST',
    path: '/devices/{id}/type',
    operationId: 'typeText',
    tool: 'ui_type_text',
    summary: 'Replace the text of a field (ui_type_text)',
    input: 'body',
  },
  {
    method: 'POST',
    path: '/devices/{id}/scroll',
    operationId: 'scroll',
    tool: 'ui_scroll',
    summary: 'Scroll one page (ui_scroll)',
    input: 'body',
  },
  {
    method: 'POST',
    path: '/devices/{id}/back',
    operationId: 'back',
    tool: 'device_back',
    summary: 'Press Back (device_back)',
    input: 'body',
  },
  {
    method: 'POST',
    path: '/devices/{id}/screenshot',
    operationId: 'screenshot',
    tool: 'screen_capture',
    summary: 'Screenshot kept as evidence; fetch it at /artifacts/{evidence.artifact_id} (screen_capture)',
    input: 'body',
  },
  {
    method: 'POST',
    path: '/devices/{id}/launch',
    operationId: 'launch',
    tool: 'app_open',
    summary: 'Launch an app and wait until it shows (app_open)',
    input: 'body',
  },
]);

export const ARTIFACTS_PREFIX = '/artifacts/';
export const OPENAPI_PATH = '/openapi.json';

/** The path parameters of `pathname` if it fits `template` (raw segments, not decoded), else null. */
export function matchPath(template: string, pathname: string): Record<string, string> | null {
  const want = template.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const pattern = want[i] ?? '';
    const segment = got[i] ?? '';
    if (pattern.startsWith('{') && pattern.endsWith('}')) {
      if (segment === '') return null;
      params[pattern.slice(1, -1)] = segment;
    } else if (pattern !== segment) return null;
  }
  return params;
}
