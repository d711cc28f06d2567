/**
 * Every value a model sends is checked here, before any lock, session or
 * device is touched. Messages say what is accepted; they never echo input verbatim
 * (untrusted text is cut and its control/bidi characters escaped by `safePreview`).
 */
import { HarnessError } from './errors.js';
import {
  idValueProblem,
  NO_WITHIN_KEYS,
  SELECTOR_KEYS,
  STATE_FLAGS,
  type Selector,
  type SelectorKey,
  type SelectorTerm,
  type StateFlag,
  type StateFlags,
} from './selectors/selector.js';
import { idPatternProblem } from './selectors/idPattern.js';
import { SCROLL_DIRECTIONS, type ScrollDirection } from './gestures/scrollDirection.js';
import { isControlOrBidi, isWellFormedUnicode, safePreview, selectorValueProblem } from './tree/nodeFacts.js';

const KEY_LIST = SELECTOR_KEYS.join(', ');
const SELECTOR_SHAPE =
  `A selector is an object with exactly one of ${KEY_LIST}, plus an optional "within" that is itself ` +
  `exactly one of those keys (no nested within), e.g. {"text": "Save"} or ` +
  `{"text": "Save", "within": {"content_desc": "Work profile"}}; by hand it may add ${STATE_FLAGS.join(', ')} ` +
  `(true or false) and "instance" (0-based). Send back a selector that ui_get_tree offered.`;

/** The largest `instance` accepted: far beyond any screen's matches, small enough to stay a plain number. */
export const INSTANCE_MAX = 999;

/**
 * Keys that would carry a position: the model never sends coordinates, whatever it
 * calls them, and a clear refusal teaches that better than "unknown key".
 */
const COORDINATE_KEY =
  /^(?:[xy]\d?|[xy]_?(?:pos|position)|left|top|right|bottom|width|height|bounds?|rect|point|points|pos|position|coords?|coordinates?|location|offset|center|centre|tap_at|at|dx|dy)$/i;

function isCoordinateKey(key: string): boolean {
  return COORDINATE_KEY.test(key) || /coord|bounds|position/i.test(key);
}

/**
 * The one argument name with "bounds" in it that is accepted: a boolean on the
 * observing tools (ui_get_tree, ui_wait) that asks for the entries' bounds in the ANSWER.
 * Position goes out, never in: it is accepted only where the tool declares it (never on an
 * acting tool, never inside a selector), and every other position-like name stays refused.
 */
export const POSITION_OUTPUT_FLAG = 'include_bounds';

/**
 * Every call's argument names, over stdio, HTTP and REST alike (the first of docs/reference/contract.md's
 * "Order of checks in every call"): a call may carry only the tool's own argument names, so a
 * misspelt `sesion_id` or a `bounds` cannot look accepted while being ignored. A name that would
 * carry a position gets the reason (the model never sends coordinates) beside the names the tool
 * takes. Position names are refused before the tool's own names are consulted, so no tool can ever
 * declare one; POSITION_OUTPUT_FLAG is the only exception, and only where the tool declares it.
 */
export function checkArgumentNames(
  args: Readonly<Record<string, unknown>>,
  allowed: readonly string[],
  tool: string,
): void {
  for (const key of Object.keys(args)) {
    const outputFlag = key === POSITION_OUTPUT_FLAG && allowed.includes(key);
    const position = !outputFlag && isCoordinateKey(key);
    if (!position && allowed.includes(key)) continue;
    const accepted = allowed.length > 0 ? `${tool} takes only ${allowed.join(', ')}` : `${tool} takes no arguments`;
    const why = position
      ? ', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so ' +
        `name the element with a selector or a ref from ui_get_tree; ${accepted}.`
      : `: ${accepted}.`;
    throw new HarnessError('INVALID_ARGUMENT', `Invalid argument '${safePreview(key, 30)}'${why}`);
  }
}

function selectorError(problem: string): HarnessError {
  return new HarnessError('INVALID_SELECTOR', `Invalid selector: ${problem}. ${SELECTOR_SHAPE}`);
}

function coordinateError(where: string, key: string): HarnessError {
  return new HarnessError(
    'INVALID_SELECTOR',
    `Invalid selector: ${where} has the key '${safePreview(key, 30)}', a position. Selectors never take coordinates ` +
      `(no x, y, bounds, point or offset under any name): name the element by what it says or is, e.g. {"text": "Save"}, ` +
      `as ui_get_tree offers it (its bounds are for auditing only).`,
  );
}

function describeType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isSelectorKey(key: string): key is SelectorKey {
  return (SELECTOR_KEYS as readonly string[]).includes(key);
}

function isStateFlag(key: string): key is StateFlag {
  return (STATE_FLAGS as readonly string[]).includes(key);
}

interface ParsedTerm {
  readonly term: SelectorTerm;
  readonly within: unknown;
  readonly states: StateFlags | undefined;
  readonly instance: number | undefined;
}

/** One `{key: value}` term; `top` is true only at the top level (within, flags and instance live there). */
function parseTerm(input: unknown, where: string, top: boolean): ParsedTerm {
  if (!isPlainObject(input)) {
    throw selectorError(`${where} must be an object, got ${describeType(input)}`);
  }
  let term: SelectorTerm | null = null;
  let within: unknown = undefined;
  let states: Partial<Record<StateFlag, boolean>> | undefined;
  let instance: number | undefined;
  const present: string[] = [];
  for (const key of Object.keys(input)) {
    const value = input[key];
    // JSON cannot carry `undefined`; a key whose value is undefined is treated as absent.
    if (value === undefined) continue;
    if (isCoordinateKey(key)) throw coordinateError(where, key);
    if (key === 'within') {
      if (!top) throw selectorError(`${where} cannot contain another "within" (one level only)`);
      within = value;
      continue;
    }
    if (isStateFlag(key)) {
      if (!top)
        throw selectorError(`${where} cannot carry "${key}": state flags go at the top level, next to the main key`);
      if (typeof value !== 'boolean') {
        throw selectorError(
          `${where}.${key} must be the JSON boolean true or false, got ${typeof value === 'string' ? `the string '${safePreview(value, 20)}'` : describeType(value)}`,
        );
      }
      states = { ...states, [key]: value };
      continue;
    }
    if (key === 'instance') {
      if (!top) throw selectorError(`${where} cannot carry "instance": it goes at the top level`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > INSTANCE_MAX) {
        throw selectorError(
          `${where}.instance must be a whole number from 0 to ${INSTANCE_MAX} (0 is the first match), got ${typeof value === 'number' ? String(value) : describeType(value)}`,
        );
      }
      instance = value;
      continue;
    }
    if (!isSelectorKey(key)) {
      throw selectorError(`${where} has the unknown key '${safePreview(key, 30)}'`);
    }
    present.push(key);
    if (typeof value !== 'string') {
      throw selectorError(`${where}.${key} must be a string, got ${describeType(value)}`);
    }
    const problem = selectorValueProblem(value) ?? (key === 'id' ? idValueProblem(value) : null);
    if (problem !== null) throw selectorError(`${where}.${key} ${problem}`);
    if (key === 'resource_id_matches') {
      const patternProblem = idPatternProblem(value);
      if (patternProblem !== null) throw selectorError(`${where}.${key} ${patternProblem}`);
    }
    term = { key, value };
  }
  if (present.length !== 1 || term === null) {
    throw selectorError(
      present.length === 0
        ? `${where} has none of ${KEY_LIST}${states !== undefined || instance !== undefined ? ' (state flags and instance only narrow a main key)' : ''}`
        : `${where} has ${present.length} keys (${present.join(', ')}) but must have exactly one`,
    );
  }
  return { term, within, states, instance };
}

/**
 * How an absent required argument is reported: by name, since "got nothing" does not tell the
 * model which key it left out. JSON null counts as absent, as for the optional arguments.
 */
function missing(input: unknown, name: string): string | null {
  if (input === undefined) return `the "${name}" argument is missing`;
  if (input === null) return `the "${name}" argument is null`;
  return null;
}

/** The selector rules; throws HarnessError('INVALID_SELECTOR'). */
export function parseSelector(input: unknown): Selector {
  const absent = missing(input, 'selector');
  if (absent !== null) throw selectorError(`${absent} (it names the element to act on)`);
  const { term: target, within, states, instance } = parseTerm(input, 'selector', true);
  const extras = { ...(states !== undefined ? { states } : {}), ...(instance !== undefined ? { instance } : {}) };
  if (within === undefined) return { target, ...extras };
  const { term: context } = parseTerm(within, 'selector.within', false);
  for (const term of [target, context]) {
    if (NO_WITHIN_KEYS.includes(term.key)) {
      throw selectorError(
        `${term.key} cannot be combined with "within" (the device runs it as a UiSelector, which has no ancestor test); narrow it with a state flag or "instance" instead`,
      );
    }
  }
  return { target, within: context, ...extras };
}

export const TEXT_MAX_CODE_POINTS = 512;

/** 1..512 code points, no control characters; throws HarnessError('INVALID_TEXT'). */
export function parseText(input: unknown): string {
  const accepted =
    `Text must be a string of 1 to ${TEXT_MAX_CODE_POINTS} characters without control characters ` +
    `(no newline, tab, NUL or bidi override; to submit, tap the button instead of sending a newline).`;
  const absent = missing(input, 'text');
  if (absent !== null)
    throw new HarnessError('INVALID_TEXT', `Invalid text: ${absent} (the text to type). ${accepted}`);
  if (typeof input !== 'string') {
    throw new HarnessError('INVALID_TEXT', `Invalid text: got ${describeType(input)}. ${accepted}`);
  }
  if (!isWellFormedUnicode(input)) {
    throw new HarnessError('INVALID_TEXT', `Invalid text: it contains an unpaired surrogate. ${accepted}`);
  }
  let n = 0;
  for (const ch of input) {
    n++;
    const cp = ch.codePointAt(0) ?? 0;
    if (isControlOrBidi(cp)) {
      throw new HarnessError(
        'INVALID_TEXT',
        `Invalid text: control character U+${cp.toString(16).toUpperCase().padStart(4, '0')} at position ${n}. ${accepted}`,
      );
    }
  }
  if (n === 0 || n > TEXT_MAX_CODE_POINTS) {
    throw new HarnessError('INVALID_TEXT', `Invalid text: it is ${n} characters long. ${accepted}`);
  }
  return input;
}

/**
 * Android itself caps package names well below this (they become directory names); 255 keeps
 * every real package and refuses absurd input before a regex runs over it.
 */
export const PACKAGE_NAME_MAX_LENGTH = 255;
const PACKAGE_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;

/** A package name that passed validation (parsePackageName); only these may reach adb. */
export type PackageName = string & { readonly __brand: 'PackageName' };

/** Throws HarnessError('INVALID_PACKAGE'). */
export function parsePackageName(input: unknown): PackageName {
  const accepted =
    `A package name is dot-separated segments of letters, digits and underscores, each starting with a letter, ` +
    `at most ${PACKAGE_NAME_MAX_LENGTH} characters (e.g. com.android.settings; no activity, path, space or flag). ` +
    `app_list_installed lists the installed packages.`;
  const absent = missing(input, 'package_name');
  if (absent !== null)
    throw new HarnessError('INVALID_PACKAGE', `Invalid package name: ${absent} (the app to open). ${accepted}`);
  if (typeof input !== 'string') {
    throw new HarnessError('INVALID_PACKAGE', `Invalid package name: got ${describeType(input)}. ${accepted}`);
  }
  if (input.length > PACKAGE_NAME_MAX_LENGTH) {
    throw new HarnessError(
      'INVALID_PACKAGE',
      `Invalid package name: it is ${input.length} characters long. ${accepted}`,
    );
  }
  if (!PACKAGE_PATTERN.test(input)) {
    throw new HarnessError('INVALID_PACKAGE', `Invalid package name '${safePreview(input)}'. ${accepted}`);
  }
  return input as PackageName;
}

/** Throws HarnessError('INVALID_SCROLL_DIRECTION'). */
export function parseDirection(input: unknown): ScrollDirection {
  if (typeof input === 'string' && (SCROLL_DIRECTIONS as readonly string[]).includes(input))
    return input as ScrollDirection;
  const absent = missing(input, 'direction');
  const got = absent ?? `got ${typeof input === 'string' ? `'${safePreview(input, 20)}'` : describeType(input)}`;
  throw new HarnessError(
    'INVALID_SCROLL_DIRECTION',
    `Invalid scroll direction: ${got}. Send "direction": "up", "down", "left" or "right" (exactly, lowercase; "down" shows what is further down, "right" what is further right).`,
  );
}

/**
 * An optional on/off argument (`include_raw`): exactly the JSON booleans. A string such as "yes"
 * or "true" is refused rather than read as off, so a model never believes it asked for something
 * it did not get. Absent and null are handled by the caller (arguments.ts). Throws
 * HarnessError('INVALID_ARGUMENT').
 */
export function parseFlag(input: unknown, name: string): boolean {
  if (input === true || input === false) return input;
  const got = typeof input === 'string' ? `the string '${safePreview(input, 20)}'` : describeType(input);
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid ${name}: got ${got}. Only the JSON booleans true and false are accepted (no quotes); leave it out for false.`,
  );
}

/**
 * `raw_offset` (ui_get_tree): where the page of raw XML starts, in UTF-16 units, as a previous
 * answer's `raw_truncated.next_offset` gives it. A non-negative integer; throws
 * HarnessError('INVALID_ARGUMENT').
 */
export function parseRawOffset(input: unknown): number {
  if (typeof input === 'number' && Number.isSafeInteger(input) && input >= 0) return input;
  const got =
    typeof input === 'string'
      ? `the string '${safePreview(input, 20)}'`
      : typeof input === 'number'
        ? String(input)
        : describeType(input);
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid raw_offset: got ${got}. Send a whole number from 0, as raw_truncated.next_offset gives it; leave it out for the first part.`,
  );
}

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{24,128}$/;

/** ^[A-Za-z0-9_-]{24,128}$; throws HarnessError('INVALID_UI_SESSION'). */
export function parseSessionId(input: unknown): string {
  if (typeof input === 'string' && SESSION_ID_PATTERN.test(input)) return input;
  throw new HarnessError(
    'INVALID_UI_SESSION',
    `Invalid session_id: it must be the exact id ui_session_open returned (24 to 128 characters of ` +
      `A-Z, a-z, 0-9, _ and -). Omit session_id to act without a UI session, or call ui_session_open for a new one.`,
  );
}
