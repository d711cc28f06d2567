/**
 * The agents' command line (`android-mcp-harness cli <verb> …`): each verb is one tool call of the
 * default catalogue, written as a shell agent types it. A verb never carries a position: a target
 * is a ref the last answer offered (`e12`), a selector key (`text=Apps`, `id=search_src_text`), a
 * selector object in JSON, or a bare label (taken as `text`). What a verb cannot say, MCP cannot
 * either: the server parses every argument as it parses a tool call.
 */
import { REF_PATTERN } from '../domain/refs/refTarget.js';
import { SELECTOR_KEYS, type SelectorKey } from '../domain/selectors/selector.js';

/** A usage mistake: printed with the usage, exit 2. */
export class CliUsageError extends Error {}

/** How a tool call uses the CLI's remembered UI session. */
export type SessionUse = 'attach' | 'open' | 'close' | 'none';

export type CliCommand =
  | {
      readonly kind: 'tool';
      readonly tool: string;
      readonly args: Readonly<Record<string, unknown>>;
      readonly session: SessionUse;
    }
  | { readonly kind: 'stop' }
  | { readonly kind: 'trace-view'; readonly dir: string | null }
  | { readonly kind: 'help' };

export const CLI_USAGE = `Usage: android-mcp-harness cli <verb> [arguments] [--json]

Each verb is one tool call on a local server the first call starts (loopback, its token in a
user-only file); it stops by itself after ANDROID_MCP_CLI_IDLE seconds without a call (default 600).

  tree [--text] [--diff]        ui_get_tree: the screen summary (--text: texts only; --diff: since the last read)
  tap TARGET [--long]           ui_tap (--long: a long press)
  type TARGET TEXT…             ui_type_text (the words are joined by one space)
  scroll up|down|left|right [TARGET]   ui_scroll (TARGET: the container)
  back                          device_back
  open PACKAGE                  app_open
  apps                          app_list_installed
  settings                      settings_open_apps
  capture                       screen_capture
  status                        emulator_get_status
  session open|close            ui_session_open / ui_session_close; while open, every verb acts in it
  trace view [DIR]              write the trace viewer page (DIR: the newest trace by default)
  stop                          stop the local server now

TARGET: a ref from the last answer (e12), KEY=VALUE with KEY one of ${SELECTOR_KEYS.join(', ')},
a selector in JSON ('{"text":"Wi-Fi","within":{"id":"list"}}'), or a bare label (taken as text=).
Output: the answer in a compact text form; --json prints the envelope as the MCP tool returns it.
Exit codes: 0 ok, 2 a bad argument, 3 no such element (or not one), 4 the device is busy, 5 no device
or Appium, 6 a timeout, 7 a UI session problem, 1 anything else.
`;

const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** One target word as the selector object the tools take. */
export function parseTarget(word: string): Record<string, unknown> {
  if (word === '') throw new CliUsageError('an empty target: give a ref (e12), KEY=VALUE, JSON, or a label');
  if (REF_PATTERN.test(word)) return { ref: word };
  if (word.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(word);
    } catch {
      throw new CliUsageError('the target starts with { but is not JSON: quote it whole, e.g. \'{"text":"Wi-Fi"}\'');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new CliUsageError('a JSON target is an object, e.g. \'{"text":"Wi-Fi"}\'');
    return parsed as Record<string, unknown>;
  }
  const eq = word.indexOf('=');
  if (eq > 0) {
    const key = word.slice(0, eq);
    if ((SELECTOR_KEYS as readonly string[]).includes(key)) return { [key as SelectorKey]: word.slice(eq + 1) };
  }
  return { text: word };
}

function takeFlag(words: string[], flag: string): boolean {
  const at = words.indexOf(flag);
  if (at === -1) return false;
  words.splice(at, 1);
  return true;
}

function exactly(words: readonly string[], count: number, verb: string, what: string): void {
  if (words.length !== count) throw new CliUsageError(`${verb} takes ${what}`);
}

function tool(name: string, args: Record<string, unknown>, session: SessionUse = 'attach'): CliCommand {
  return { kind: 'tool', tool: name, args, session };
}

/** The words after `cli` (without --json) as one command. */
export function parseVerb(input: readonly string[]): CliCommand {
  const [verb, ...rest] = input;
  const words = [...rest];
  switch (verb) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      return { kind: 'help' };
    case 'tree': {
      const text = takeFlag(words, '--text');
      const diff = takeFlag(words, '--diff');
      exactly(words, 0, 'tree', 'only --text and --diff');
      return tool('ui_get_tree', { ...(text ? { mode: 'text' } : {}), ...(diff ? { since: 'last' } : {}) }, 'none');
    }
    case 'tap': {
      const long = takeFlag(words, '--long');
      exactly(words, 1, 'tap', 'one TARGET (quote a label with spaces)');
      return tool('ui_tap', { selector: parseTarget(words[0] ?? ''), ...(long ? { long_press: true } : {}) });
    }
    case 'type': {
      if (words.length < 2) throw new CliUsageError('type takes a TARGET and the TEXT to type');
      const [target, ...text] = words;
      return tool('ui_type_text', { selector: parseTarget(target ?? ''), text: text.join(' ') });
    }
    case 'scroll': {
      const [direction, target, ...extra] = words;
      if (!direction || !(SCROLL_DIRECTIONS as readonly string[]).includes(direction) || extra.length > 0)
        throw new CliUsageError('scroll takes up, down, left or right, and optionally the container as TARGET');
      return tool('ui_scroll', { direction, ...(target !== undefined ? { selector: parseTarget(target) } : {}) });
    }
    case 'back':
      exactly(words, 0, 'back', 'no argument');
      return tool('device_back', {});
    case 'open':
      exactly(words, 1, 'open', 'one PACKAGE, e.g. com.android.settings');
      return tool('app_open', { package_name: words[0] });
    case 'apps':
      exactly(words, 0, 'apps', 'no argument');
      return tool('app_list_installed', {}, 'none');
    case 'settings':
      exactly(words, 0, 'settings', 'no argument');
      return tool('settings_open_apps', {});
    case 'capture':
      exactly(words, 0, 'capture', 'no argument');
      return tool('screen_capture', {});
    case 'status':
      exactly(words, 0, 'status', 'no argument');
      return tool('emulator_get_status', {}, 'none');
    case 'session': {
      const [what, ...extra] = words;
      if (extra.length > 0 || (what !== 'open' && what !== 'close'))
        throw new CliUsageError('session takes open or close');
      return what === 'open' ? tool('ui_session_open', {}, 'open') : tool('ui_session_close', {}, 'close');
    }
    case 'trace': {
      const [what, dir, ...extra] = words;
      if (what !== 'view' || extra.length > 0) throw new CliUsageError('trace takes view [DIR]');
      return { kind: 'trace-view', dir: dir ?? null };
    }
    case 'stop':
      exactly(words, 0, 'stop', 'no argument');
      return { kind: 'stop' };
    default:
      throw new CliUsageError(`unknown verb ${JSON.stringify(verb.slice(0, 32))}`);
  }
}

/** The exit status of an error code: a shell agent branches on it without reading the message. */
export function exitCodeFor(code: string | null): number {
  if (code === null) return 0;
  if (code.startsWith('INVALID_') && code !== 'INVALID_UI_SESSION') return 2;
  if (code.startsWith('UI_ELEMENT_') || code === 'STALE_REF' || code === 'APP_NOT_FOUND') return 3;
  if (code === 'EMULATOR_BUSY' || code === 'DEVICE_AMBIGUOUS' || code === 'DEVICE_LOCKED') return 4;
  if (code === 'EMULATOR_UNAVAILABLE' || code === 'APPIUM_UNAVAILABLE' || code === 'UI_TREE_UNAVAILABLE') return 5;
  if (code === 'OPERATION_TIMEOUT') return 6;
  if (code === 'INVALID_UI_SESSION') return 7;
  return 1;
}
