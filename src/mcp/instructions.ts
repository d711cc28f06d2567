import type { ToolsetName } from '../domain/toolsets.js';

/** Taught to the model at initialize: the loop that makes the tools work without coordinates. */
export const SERVER_INSTRUCTIONS = [
  'Drives one Android emulator by meaning, never by coordinates.',
  'Loop: call ui_get_tree, pick an entry from `actions`, send {"ref": <its ref>} (or, without the ref, its selector keys unchanged: id, resource_id, text, content_desc, input_hint, within) to ui_tap or ui_type_text (a selector waits up to 10 s for its element; one that names several is refused with UI_ELEMENT_AMBIGUOUS and their refs). STALE_REF means the screen changed: read it again.',
  'Every action answers `after`, the screen it left, with fresh refs: choose the next step from it instead of calling ui_get_tree. An `after` with `diff_of` lists only what changed since that read (added entries, removed refs, changed entries, texts_added, texts_removed); every other ref stays valid. settled: false means the screen may still change. observe: false leaves `after` out.',
  'ui_get_tree with since: "last" sends only the changes since the last read, within: {"ref": …} one container, mode: "text" only the texts (an article, a chat).',
  'An action without `label` is named by its selector\'s value; without `role` it is a button; `enabled` appears only as false. `id` is a resource id of the foreground app without its "<package>:id/" prefix. `texts` lists what the actions do not already show.',
  "Entries marked `ambiguous`, and those without selector keys, are reached by their ref only; `covered_by_keyboard` ones sit under the keyboard (device_back closes it). include_bounds: true adds each entry's bounds [left, top, width, height], for auditing only.",
  'ui_scroll moves the largest list that scrolls the given direction (up/down/left/right); to move another one (a carousel, a list in a sheet), pass the `selector` of an entry of `scrollables` (no `orientation` means vertical). moved: false means it is at its end.',
  'For several steps in a row call ui_session_open and pass its session_id to every call, then ui_session_close.',
  'Every answer is one envelope {ok, operation_id, tool, data, evidence, error}; error.message says what to do next. evidence {artifact_id} names the screenshot the call left: resources/read artifact://<artifact_id> shows it. EMULATOR_BUSY means another call holds the device: retry when it is done.',
].join('\n');

/**
 * One line per opt-in toolset, added only when it is on, so the instructions never
 * name a tool the model cannot call. `core` is SERVER_INSTRUCTIONS itself.
 */
const TOOLSET_LINES: Readonly<Partial<Record<ToolsetName, string>>> = Object.freeze({
  apps: 'app_install installs an APK from the folder the user allowed; app_stop force-stops an app; app_clear_data erases its data for good (destructive: only when the user asked); app_open_link opens a deep link or URL.',
  device:
    'device_key presses home, recents, enter or back. device_list shows every device adb sees. notifications_open pulls the shade down and returns it like ui_get_tree: tap a notification by its ref. device_rotate turns the screen.',
  wait: 'Instead of calling ui_get_tree again and again, ui_wait returns as soon as a selector is visible or gone.',
  diagnostics:
    'app_logs reads what a running app wrote to logcat; app_crashes lists its crashes and ANRs with the first lines of the stack.',
});

/** The instructions for the toolsets on: with only `core`, exactly SERVER_INSTRUCTIONS. */
export function serverInstructions(toolsets: readonly ToolsetName[]): string {
  const extra = toolsets.flatMap((name) => {
    const line = name === 'core' ? undefined : TOOLSET_LINES[name];
    return line ? [line] : [];
  });
  return [SERVER_INSTRUCTIONS, ...extra].join('\n');
}
