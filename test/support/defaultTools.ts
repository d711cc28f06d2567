/**
 * The twelve tools of the default catalogue, in the order tools/list gives them, written here once
 * for the tests and not imported from src/mcp/tools (TOOL_NAMES): a test that took the server's own
 * list could not fail when the catalogue changed by mistake.
 */
export const DEFAULT_TOOL_NAMES: readonly string[] = Object.freeze([
  'emulator_get_status',
  'ui_get_tree',
  'screen_capture',
  'app_list_installed',
  'app_open',
  'ui_session_open',
  'ui_session_close',
  'ui_tap',
  'ui_type_text',
  'ui_scroll',
  'device_back',
  'settings_open_apps',
]);
