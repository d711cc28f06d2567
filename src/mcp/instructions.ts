import type { ToolsetName } from '../domain/toolsets.js';

/**
 * Taught to the model at initialize: the loop that makes the tools work without coordinates, and
 * only what no schema can say (what an argument means is in its description: a client may show
 * nothing else). At most 2 KB, what Claude Code shows of a server's instructions.
 */
export const SERVER_INSTRUCTIONS = [
  'Drives one Android emulator by meaning, never by coordinates.',
  'Loop: call ui_get_tree, pick an entry from `actions`, send {"ref": <its ref>} (or, without the ref, its selector keys unchanged) to ui_tap or ui_type_text (a selector waits up to 10 s for its element; one naming several is refused: UI_ELEMENT_AMBIGUOUS). STALE_REF means the screen changed: read it again.',
  'Every action answers `after`, the screen it left, with fresh refs: choose the next step from it instead of calling ui_get_tree. An `after` with `diff_of` lists only what changed since that read; every other ref stays valid. settled: false means the screen may still change.',
  'An action without `label` is named by its selector\'s value; without `role` it is a button; `enabled` appears only as false. `id` is a resource id of the foreground app without its "<package>:id/" prefix. `texts` lists what the actions do not already show.',
  'Entries marked `ambiguous`, and those without selector keys, are reached by their ref only; `covered_by_keyboard` ones sit under the keyboard (device_back closes it). A `scrollables` entry without `orientation` scrolls vertically; moved: false means a list is at its end.',
  'For several steps in a row call ui_session_open and pass its session_id to every call, then ui_session_close.',
  'Every answer is one envelope {ok, operation_id, tool, data, evidence, error}; error.message says what to do next. evidence {artifact_id} names the screenshot the call left: resources/read artifact://<artifact_id> shows it. EMULATOR_BUSY means another call holds the device: retry when it is done.',
].join('\n');

/**
 * One line per opt-in toolset that needs more than its tools' schemas say, added only when it is
 * on, so the instructions never name a tool the model cannot call. `core` is SERVER_INSTRUCTIONS itself.
 */
const TOOLSET_LINES: Readonly<Partial<Record<ToolsetName, string>>> = Object.freeze({
  apps: 'Call app_clear_data only when the user asked for it: the data is gone for good.',
  device:
    'device_key home leaves the app for the launcher; after notifications_open, tap a notification by its ref and device_back closes the shade.',
  wait: 'Instead of calling ui_get_tree again and again, ui_wait returns as soon as a selector is visible or gone.',
  diagnostics: 'When an app misbehaves or vanishes, app_logs shows what it wrote and app_crashes why it stopped.',
});

/** The instructions for the toolsets on: with only `core`, exactly SERVER_INSTRUCTIONS. */
export function serverInstructions(toolsets: readonly ToolsetName[]): string {
  const extra = toolsets.flatMap((name) => {
    const line = name === 'core' ? undefined : TOOLSET_LINES[name];
    return line ? [line] : [];
  });
  return [SERVER_INSTRUCTIONS, ...extra].join('\n');
}
