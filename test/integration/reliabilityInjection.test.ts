/**
 * Injection: 300+ hostile values into every parameter of every tool, through real
 * stdio (the built server, the SDK Client) against the virtual device on a real adb server and
 * a real Appium. CI runs every value the contract refuses (each must come back as its typed
 * INVALID_* error without reaching adb, Appium or the device) and a sample of the values the
 * contract accepts (each must be inert: typed as text, searched as an XPath literal, ignored);
 * `npm run soak` runs every accepted value (RELIABILITY_FULL=1).
 *
 * How the harness's own adb traffic is told from Appium's: the harness runs with a tracing adb
 * wrapper (ANDROID_HOME), Appium with the real adb. Every traced argv must be on the closed list
 * of the closed adb list; every shell command the device logged must be either one of those or one of
 * the fixed commands Appium runs to set up and end its UiAutomator2 session; and no hostile
 * value may appear in any shell command at all.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type HarnessProcess } from '../e2e/support/harnessClient.js';
import { describeWithAdb } from '../support/adbServer.js';
import { HOSTILE_APK_NAMES, makeApkFolder, type ApkFolderFixture } from '../support/apkFixtures.js';
import {
  describeHostile,
  HOSTILE_SELECTOR_SHAPES,
  hostileValues,
  packageAccepted,
  selectorValueAccepted,
  textAccepted,
  withValue,
  type Hostile,
} from '../support/hostileValues.js';
import { ensureBuilt } from '../support/rawServer.js';
import { isClosedListArgv, startReliabilityStack, type ReliabilityStack } from '../support/reliabilityStack.js';

const FULL = process.env.RELIABILITY_FULL === '1';
const SELECTOR_KEYS = [
  'resource_id',
  'text',
  'content_desc',
  'text_contains',
  'input_hint',
  'text_starts_with',
  'content_desc_contains',
  'class_name',
  'resource_id_matches',
];
const STATE_FLAGS = ['checked', 'selected', 'enabled', 'focused'];

/**
 * The resource_id_matches dialect, written independently of src/domain/idPattern.ts:
 * optional ^, atoms (a literal, `.`, an allowed escape, or a flat class) each with at most one of
 * * + ?, optional $; at most 128 code points, 2 unbounded and 6 quantifiers in all.
 */
function idPatternAccepted(value: string): boolean {
  if ([...value].length > 128) return false;
  const literal = String.raw`[^\\^$.|?*+()[\]{}"]`;
  const escape = String.raw`\\[dDwW.^$|?*+()[\]{}\-/]`;
  const member = String.raw`[^\][&\\"^]`;
  const cls = String.raw`\[\^?(?:${member}-${member}|${member})+\]`;
  const atom = `(?:${literal}|\\.|${escape}|${cls})`;
  const shape = new RegExp(`^\\^?(?:${atom}[*+?]?)+\\$?$`, 'u');
  if (!shape.test(value)) return false;
  // Backwards ranges inside classes are refused.
  for (const m of value.matchAll(/\[\^?([^\]]*)\]/gu)) {
    const body = [...(m[1] ?? '')];
    for (let i = 0; i + 2 < body.length; i++)
      if (body[i + 1] === '-' && (body[i]!.codePointAt(0) ?? 0) > (body[i + 2]!.codePointAt(0) ?? 0)) return false;
  }
  const bare = value.replace(/\\./gu, 'e').replace(/\[[^\]]*\]/gu, 'c');
  const unbounded = (bare.match(/[*+]/g) ?? []).length;
  const all = (bare.match(/[*+?]/g) ?? []).length;
  return unbounded <= 2 && all <= 6;
}
/** The directions the validation rules take: exactly these four, lowercase. */
const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'];

/**
 * app_open_link's link, written independently of src/domain/links: a lower-case scheme that is not
 * one of the refused six, then only unreserved characters, the delimiters a link needs and
 * percent-escapes; at most 2,000 characters.
 */
function linkAccepted(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2000) return false;
  const m = /^([a-z][a-z0-9+.-]{0,31}):(?:[A-Za-z0-9\-._~:/?#@&=+,]|%[0-9A-Fa-f]{2})+$/.exec(value);
  return m !== null && !['file', 'content', 'javascript', 'vbscript', 'data', 'intent'].includes(m[1] ?? '');
}

/** What a slot expects for a value: a typed error code, or 'inert' (valid input, run in phase 2). */
type Expectation = string;

interface Slot {
  readonly name: string;
  readonly tool: string;
  args(hostile: Hostile): Record<string, unknown>;
  expect(hostile: Hostile): Expectation;
}

function valueOf(hostile: Hostile): unknown {
  return 'absent' in hostile ? undefined : hostile.value;
}

/** The selector shape of the validation rules, written independently of src/domain. */
function selectorAccepted(value: unknown, allowWithin = true): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const extras = entries.filter(([key]) => STATE_FLAGS.includes(key) || key === 'instance');
  const terms = entries.filter(([key]) => key !== 'within' && !STATE_FLAGS.includes(key) && key !== 'instance');
  const within = entries.find(([key]) => key === 'within');
  if (terms.length !== 1 || !SELECTOR_KEYS.includes(terms[0]?.[0] ?? '')) return false;
  if (!selectorValueAccepted(terms[0]?.[1])) return false;
  const key = terms[0]?.[0];
  if (key === 'resource_id_matches' && !idPatternAccepted(String(terms[0]?.[1]))) return false;
  // State flags and instance: top level only, JSON booleans and a whole number 0..999.
  if (extras.length > 0 && !allowWithin) return false;
  for (const [name, v] of extras) {
    if (
      name === 'instance'
        ? !(typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 999)
        : typeof v !== 'boolean'
    )
      return false;
  }
  if (within === undefined) return true;
  if (key === 'resource_id_matches') return false;
  if (!allowWithin || !selectorAccepted(within[1], false)) return false;
  return !Object.keys(within[1] as Record<string, unknown>).includes('resource_id_matches');
}

function sessionSlot(tool: string, base: Record<string, unknown>): Slot {
  return {
    name: `${tool}.session_id`,
    tool,
    args: (h) => withValue(base, 'session_id', h),
    // Absent and null both mean "no session_id" (arguments.ts); anything else names no open flow.
    expect: (h) => (valueOf(h) === undefined || valueOf(h) === null ? 'inert' : 'INVALID_UI_SESSION'),
  };
}

function selectorSlot(
  tool: string,
  base: Record<string, unknown>,
  wrap: (v: unknown, h: Hostile) => unknown,
  name: string,
): Slot {
  return {
    name: `${tool}.${name}`,
    tool,
    args: (h) => ({ ...base, selector: wrap(valueOf(h), h) }),
    expect: (h) => (selectorAccepted(wrap(valueOf(h), h)) ? 'inert' : 'INVALID_SELECTOR'),
  };
}

const term = (key: string) => (v: unknown, h: Hostile) => ('absent' in h ? {} : { [key]: v });

const SLOTS: Slot[] = [
  {
    name: 'app_open.package_name',
    tool: 'app_open',
    args: (h) => withValue({}, 'package_name', h),
    expect: (h) => (packageAccepted(valueOf(h)) ? 'inert' : 'INVALID_PACKAGE'),
  },
  {
    name: 'ui_scroll.direction',
    tool: 'ui_scroll',
    args: (h) => withValue({}, 'direction', h),
    expect: (h) => (SCROLL_DIRECTIONS.includes(valueOf(h) as string) ? 'inert' : 'INVALID_SCROLL_DIRECTION'),
  },
  // ui_scroll's optional container takes any selector ui_tap takes; absent and null mean none.
  {
    name: 'ui_scroll.selector',
    tool: 'ui_scroll',
    args: (h) => withValue({ direction: 'right' }, 'selector', h),
    expect: (h) =>
      valueOf(h) === undefined || valueOf(h) === null || selectorAccepted(valueOf(h)) ? 'inert' : 'INVALID_SELECTOR',
  },
  selectorSlot('ui_scroll', { direction: 'left' }, term('text'), 'selector.text'),
  selectorSlot(
    'ui_scroll',
    { direction: 'down' },
    (v, h) => ({ resource_id: 'a:id/list', within: 'absent' in h ? {} : { text: v } }),
    'selector.within.text',
  ),
  {
    name: 'ui_session_close.session_id',
    tool: 'ui_session_close',
    args: (h) => withValue({}, 'session_id', h),
    expect: () => 'INVALID_UI_SESSION',
  },
  sessionSlot('ui_get_tree', {}),
  sessionSlot('ui_tap', { selector: { text: 'Apps' } }),
  sessionSlot('ui_type_text', { selector: { input_hint: 'Search' }, text: 'ok' }),
  sessionSlot('ui_scroll', { direction: 'down' }),
  sessionSlot('device_back', {}),
  // The observers and launchers take a flow's session_id too, so a sub-agent reaches its own device.
  sessionSlot('screen_capture', {}),
  sessionSlot('app_list_installed', {}),
  sessionSlot('settings_open_apps', {}),
  sessionSlot('app_open', { package_name: 'com.android.settings' }),
  selectorSlot('ui_tap', {}, (v, h) => ('absent' in h ? undefined : v), 'selector'),
  ...SELECTOR_KEYS.map((key) => selectorSlot('ui_tap', {}, term(key), `selector.${key}`)),
  selectorSlot(
    'ui_tap',
    {},
    (v, h) => ({ text: 'Save', within: 'absent' in h ? {} : { content_desc: v } }),
    'selector.within.content_desc',
  ),
  // A ref is `e` + a base-36 serial, nothing else (written independently of src/domain);
  // a well-formed ref this server never gave is STALE_REF.
  {
    name: 'ui_tap.selector.ref',
    tool: 'ui_tap',
    args: (h) => ({ selector: 'absent' in h ? {} : { ref: valueOf(h) } }),
    expect: (h) => {
      const v = valueOf(h);
      if (v === undefined) return 'INVALID_SELECTOR';
      return typeof v === 'string' && /^e[1-9a-z][0-9a-z]{0,7}$/.test(v) ? 'STALE_REF' : 'INVALID_SELECTOR';
    },
  },
  selectorSlot(
    'ui_tap',
    {},
    (v, h) => ('absent' in h ? { text: 'Save' } : { text: 'Save', [String(v)]: 'x' }),
    'selector.<key>',
  ),
  // The state flags and instance next to a main key, and the new keys inside within.
  ...STATE_FLAGS.map((flag) =>
    selectorSlot(
      'ui_tap',
      {},
      (v, h) => ('absent' in h ? { text: 'Save' } : { text: 'Save', [flag]: v }),
      `selector.${flag}`,
    ),
  ),
  selectorSlot(
    'ui_tap',
    {},
    (v, h) => ('absent' in h ? { text: 'Save' } : { text: 'Save', instance: v }),
    'selector.instance',
  ),
  selectorSlot(
    'ui_tap',
    {},
    (v, h) => ({ text: 'Save', within: 'absent' in h ? {} : { class_name: v } }),
    'selector.within.class_name',
  ),
  selectorSlot(
    'ui_tap',
    {},
    (v, h) => ({ text: 'Save', within: 'absent' in h ? {} : { resource_id_matches: v } }),
    'selector.within.resource_id_matches',
  ),
  {
    name: 'ui_tap.long_press',
    tool: 'ui_tap',
    args: (h) => withValue({ selector: { text: 'Apps' } }, 'long_press', h),
    expect: (h) =>
      valueOf(h) === undefined || valueOf(h) === null || typeof valueOf(h) === 'boolean' ? 'inert' : 'INVALID_ARGUMENT',
  },
  selectorSlot('ui_type_text', { text: 'ok' }, term('input_hint'), 'selector.input_hint'),
  selectorSlot('ui_type_text', { text: 'ok' }, (v, h) => ('absent' in h ? undefined : v), 'selector'),
  {
    name: 'ui_type_text.text',
    tool: 'ui_type_text',
    args: (h) => withValue({ selector: { input_hint: 'Search' } }, 'text', h),
    expect: (h) => (textAccepted(valueOf(h)) ? 'inert' : 'INVALID_TEXT'),
  },
  // Absent and null mean false; only the JSON booleans are accepted, anything else is refused typed.
  {
    name: 'ui_get_tree.include_raw',
    tool: 'ui_get_tree',
    args: (h) => withValue({}, 'include_raw', h),
    expect: (h) =>
      valueOf(h) === undefined || valueOf(h) === null || typeof valueOf(h) === 'boolean' ? 'inert' : 'INVALID_ARGUMENT',
  },
  // A whole number from 0 (the next part of the raw XML); absent and null mean the first part.
  {
    name: 'ui_get_tree.raw_offset',
    tool: 'ui_get_tree',
    args: (h) => withValue({}, 'raw_offset', h),
    expect: (h) => {
      const v = valueOf(h);
      return v === undefined || v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)
        ? 'inert'
        : 'INVALID_ARGUMENT';
    },
  },
  // The opt-in toolsets (the harness runs with ANDROID_MCP_TOOLSETS=all): closed sets and bounded numbers only.
  {
    name: 'app_stop.package_name',
    tool: 'app_stop',
    args: (h) => withValue({}, 'package_name', h),
    expect: (h) => (packageAccepted(valueOf(h)) ? 'inert' : 'INVALID_PACKAGE'),
  },
  {
    name: 'app_clear_data.package_name',
    tool: 'app_clear_data',
    args: (h) => withValue({}, 'package_name', h),
    expect: (h) => (packageAccepted(valueOf(h)) ? 'inert' : 'INVALID_PACKAGE'),
  },
  {
    name: 'ui_wait.until',
    tool: 'ui_wait',
    args: (h) => withValue({ selector: { text: 'Apps' } }, 'until', h),
    expect: (h) => (valueOf(h) === 'visible' || valueOf(h) === 'gone' ? 'inert' : 'INVALID_ARGUMENT'),
  },
  {
    name: 'ui_wait.timeout_s',
    tool: 'ui_wait',
    args: (h) => withValue({ selector: { text: 'Apps' }, until: 'gone' }, 'timeout_s', h),
    expect: (h) => {
      const v = valueOf(h);
      return v === undefined || v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0.5 && v <= 60)
        ? 'inert'
        : 'INVALID_ARGUMENT';
    },
  },
  // app_install: no hostile value names an APK inside the allowed folder, so every one is
  // refused typed before adb: bad shapes by validation, the fixture's hostile files by the folder check.
  {
    name: 'app_install.apk',
    tool: 'app_install',
    args: (h) => withValue({}, 'apk', h),
    expect: () => 'INVALID_ARGUMENT',
  },
  // The diagnostics toolset: a package, a bounded whole number, six letters, an ISO time with a zone.
  {
    name: 'app_logs.package_name',
    tool: 'app_logs',
    args: (h) => withValue({}, 'package_name', h),
    expect: (h) => (packageAccepted(valueOf(h)) ? 'inert' : 'INVALID_PACKAGE'),
  },
  {
    name: 'app_logs.lines',
    tool: 'app_logs',
    args: (h) => withValue({ package_name: 'com.android.settings' }, 'lines', h),
    expect: (h) => {
      const v = valueOf(h);
      return v === undefined || v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 500)
        ? 'inert'
        : 'INVALID_ARGUMENT';
    },
  },
  {
    name: 'app_logs.min_level',
    tool: 'app_logs',
    args: (h) => withValue({ package_name: 'com.android.settings' }, 'min_level', h),
    expect: (h) => {
      const v = valueOf(h);
      return v === undefined || v === null || ['V', 'D', 'I', 'W', 'E', 'F'].includes(v as string)
        ? 'inert'
        : 'INVALID_ARGUMENT';
    },
  },
  {
    name: 'app_crashes.package_name',
    tool: 'app_crashes',
    args: (h) => withValue({}, 'package_name', h),
    expect: (h) => {
      const v = valueOf(h);
      return v === undefined || v === null || packageAccepted(v) ? 'inert' : 'INVALID_PACKAGE';
    },
  },
  {
    name: 'app_crashes.since',
    tool: 'app_crashes',
    args: (h) => withValue({}, 'since', h),
    expect: (h) => {
      const v = valueOf(h);
      if (v === undefined || v === null) return 'inert';
      const iso =
        typeof v === 'string' &&
        v.length <= 40 &&
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/.test(v) &&
        Number.isFinite(Date.parse(v));
      return iso ? 'inert' : 'INVALID_ARGUMENT';
    },
  },
  // app_open_link: the one value that reaches the device's shell, as a single-quoted word of a closed grammar.
  {
    name: 'app_open_link.url',
    tool: 'app_open_link',
    args: (h) => withValue({}, 'url', h),
    expect: (h) => (linkAccepted(valueOf(h)) ? 'inert' : 'INVALID_ARGUMENT'),
  },
  {
    name: 'app_open_link.package_name',
    tool: 'app_open_link',
    args: (h) => withValue({ url: 'myapp://x' }, 'package_name', h),
    expect: (h) => {
      const v = valueOf(h);
      return v === undefined || v === null || packageAccepted(v) ? 'inert' : 'INVALID_PACKAGE';
    },
  },
  {
    name: 'device_key.key',
    tool: 'device_key',
    args: (h) => withValue({}, 'key', h),
    expect: (h) => (['home', 'recents', 'enter', 'back'].includes(valueOf(h) as string) ? 'inert' : 'INVALID_ARGUMENT'),
  },
];

/** Commands Appium itself runs to set up, keep and end a UiAutomator2 session: fixed strings, no caller input. */
const APPIUM_COMMANDS: RegExp[] = [
  /^getprop ro\.build\.version\.sdk$/,
  /^settings (put|delete) global hidden_api_policy/,
  /^dumpsys (package|activity services) io\.appium\.(settings|uiautomator2\.server)(\/\.[\w.]+)?$/,
  /^cmd notification allow_listener io\.appium\.settings\/\.NLService$/,
  /^appops set io\.appium\.settings (PROJECT_MEDIA|android:mock_location) allow$/,
  /^am start-activity -n io\.appium\.settings\/\.Settings -a android\.intent\.action\.MAIN -c android\.intent\.category\.LAUNCHER$/,
  /^export ANDROID_LOG_TAGS="''"; exec logcat '-v' 'threadtime'$/,
  /^\[ -e '\/data\/local\/tmp\/mock_apps\.json' \] && echo __PASS__$/,
  /^mkdir -p -- '\/data\/local\/tmp'$/,
  /^cat \/data\/local\/tmp\/mock_apps\.json$/,
  /^cmd package list packages --show-versioncode$/,
  /^pm list instrumentation$/,
  /^dumpsys deviceidle whitelist \+io\.appium\.settings ; dumpsys deviceidle whitelist \+io\.appium\.uiautomator2\.server ; dumpsys deviceidle whitelist \+io\.appium\.uiautomator2\.server\.test ;$/,
  /^am force-stop io\.appium\.uiautomator2\.server(\.test)?$/,
  /^am instrument -w -e disableAnalytics true io\.appium\.uiautomator2\.server\.test\/androidx\.test\.runner\.AndroidJUnitRunner$/,
  /^dumpsys (power|window displays|display)$/,
  /^ps( --help| -A)?$/,
  /^am instrument: /, // the device's own notes about the instrumentation's life
  /^input keyevent \d+$/,
];

/** The harness's closed list as the device logs it (origin stripped). */
function isHarnessDeviceCommand(command: string): boolean {
  const fixed = [
    'getprop sys.boot_completed',
    'getprop ro.build.version.release',
    'getprop ro.product.model',
    'pm list packages',
    'wm density',
    'dumpsys window',
    "uiautomator 'dump' '/dev/tty'",
    // Evidence takes the raw frame; the device PNG only when the raw one is not a frame the harness reads.
    'screencap',
    "screencap '-p'",
    'am start -W -S -a android.settings.APPLICATION_SETTINGS',
    'ps -A -o PID,NAME',
    'getprop', // every property at once, the device's identity for its lock
    'dumpsys power', // whether the screen is awake (DEVICE_LOCKED)
    'pidof io.appium.uiautomator2.server', // who holds UiAutomation after an empty dump
    'logcat -b crash -d -v threadtime -v year -v UTC',
    'logcat -b events -d -v threadtime -v year -v UTC -s am_anr',
  ];
  if (fixed.includes(command)) return true;
  if (/^logcat -d -v threadtime -v year -v UTC -t [1-9][0-9]{0,3} --pid=[1-9][0-9]{0,6}$/.test(command)) return true;
  const pkg = '[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)*';
  // app_open_link: the link single-quoted (one word for the device's shell), then an optional validated package.
  const link = /^am start -W -a android\.intent\.action\.VIEW -d '([^']*)'(?: ([A-Za-z][A-Za-z0-9_.]*))?$/.exec(
    command,
  );
  if (link) return linkAccepted(link[1]) && (link[2] === undefined || new RegExp(`^${pkg}$`).test(link[2]));
  return (
    new RegExp(
      `^cmd package resolve-activity --brief -a android\\.intent\\.action\\.MAIN -c android\\.intent\\.category\\.LAUNCHER ${pkg}$`,
    ).test(command) || new RegExp(`^am start -W -n ${pkg}/[.A-Za-z0-9_]+$`).test(command)
  );
}

describeWithAdb('injection: hostile values into every parameter of every tool', () => {
  let stack: ReliabilityStack;
  let harness: HarnessProcess;
  let apkFolder: ApkFolderFixture;
  const inert: { slot: Slot; hostile: Hostile }[] = [];
  let refusedCalls = 0;
  const inertValues = new Set<string>();
  /** Shell commands seen during a clean warm-up (the harness's and Appium's own). */
  const baseline = new Set<string>();
  const shellCommands = (): string[] =>
    stack.device
      .log()
      .filter((e) => e.kind === 'shell' || e.kind === 'unknown-command')
      .map((e) => e.detail.replace(/^(shell_v2|shell|exec): /, ''));

  beforeAll(async () => {
    ensureBuilt();
    stack = await startReliabilityStack({ appium: true });
    apkFolder = makeApkFolder();
    harness = await startHarness(
      stack.harnessEnv('injection', { ANDROID_MCP_TOOLSETS: 'all', ANDROID_MCP_APK_DIR: apkFolder.dir }),
    );
    // A clean warm-up: what the device sees from honest calls, so that anything new is attributable.
    for (const tool of ['emulator_get_status', 'ui_get_tree', 'app_list_installed'])
      expect((await harness.call(tool)).envelope.ok).toBe(true);
    const flow = await harness.call('ui_session_open');
    expect((await harness.call('ui_session_close', { session_id: flow.envelope.data.session_id })).envelope.ok).toBe(
      true,
    );
    for (const command of shellCommands()) baseline.add(command);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
    apkFolder?.remove();
  }, 60_000);

  const appiumRequests = (): number => {
    const log = readFileSync(stack.appium?.logFile ?? '', 'utf8');
    return (log.match(/\[HTTP\] -->/g) ?? []).length;
  };

  it('refuses every value the contract refuses with its typed error, before adb, Appium or the device', async () => {
    const values = hostileValues();
    expect(values.length).toBeGreaterThanOrEqual(300);
    const deviceBefore = stack.device.log().length;
    const traceBefore = stack.trace().length;
    const appiumBefore = appiumRequests();
    const wrong: string[] = [];
    for (const slot of SLOTS) {
      const pool = slot.name.endsWith('.selector')
        ? [...values, ...HOSTILE_SELECTOR_SHAPES]
        : slot.name === 'app_install.apk'
          ? [...values, ...HOSTILE_APK_NAMES.map((value, i) => ({ label: `apk#${i}`, value }))]
          : values;
      for (const hostile of pool) {
        const expected = slot.expect(hostile);
        if (expected === 'inert') {
          inert.push({ slot, hostile });
          continue;
        }
        const answer = await harness.call(slot.tool, slot.args(hostile), 10_000);
        refusedCalls += 1;
        if (answer.envelope.error?.code !== expected)
          wrong.push(
            `${slot.name} ${describeHostile(hostile)} → ${answer.envelope.error?.code ?? 'ok'} (expected ${expected})`,
          );
        else if (answer.elapsedMs > 2_000)
          wrong.push(`${slot.name} ${describeHostile(hostile)} took ${answer.elapsedMs} ms`);
      }
    }
    expect(wrong).toEqual([]);
    // Nothing reached the device, the harness's adb, or Appium.
    expect(
      stack.device
        .log()
        .slice(deviceBefore)
        .map((e) => `${e.kind} ${e.detail}`),
    ).toEqual([]);
    expect(stack.trace().length).toBe(traceBefore);
    expect(appiumRequests()).toBe(appiumBefore);
    process.stderr.write(
      `[reliability] injection: ${values.length} hostile values (+${HOSTILE_SELECTOR_SHAPES.length} selector shapes), ${refusedCalls} refused calls over ${SLOTS.length} parameter slots, ${inert.length} accepted as inert\n`,
    );
  }, 300_000);

  it('handles the values the contract accepts as inert text: typed exactly, searched as literals, never in a shell', async () => {
    const device = stack.device;
    const sample = <T>(items: T[], n: number): T[] =>
      FULL ? items : items.filter((_, i) => i % Math.max(1, Math.ceil(items.length / n)) === 0);
    const bySlot = (name: string) => inert.filter((item) => item.slot.name === name);
    const problems: string[] = [];

    // Typed text: into the Settings search field, inside one flow; the field must hold exactly the value.
    device.setScreen('settings_search');
    const opened = await harness.call('ui_session_open', {});
    expect(opened.envelope.ok, JSON.stringify(opened.envelope.error)).toBe(true);
    const sessionId = String(opened.envelope.data.session_id);
    const texts = sample(bySlot('ui_type_text.text'), 25);
    for (const { hostile } of texts) {
      const value = valueOf(hostile) as string;
      inertValues.add(value);
      const answer = await harness.call('ui_type_text', {
        selector: { input_hint: 'Search' },
        text: value,
        session_id: sessionId,
      });
      const field = device.nodes().find((node) => node.className.endsWith('EditText'));
      if (!answer.envelope.ok) problems.push(`type ${describeHostile(hostile)} → ${answer.envelope.error?.code}`);
      else if (field?.text !== value)
        problems.push(`type ${describeHostile(hostile)}: the field holds ${JSON.stringify(field?.text)?.slice(0, 80)}`);
      else if (answer.envelope.data.characters_sent !== [...value].length)
        problems.push(
          `type ${describeHostile(hostile)}: characters_sent ${String(answer.envelope.data.characters_sent)}`,
        );
    }
    // Selector values: searched as literals; nothing matches, nothing is tapped (each find waits its
    // ANDROID_MCP_FIND_TIMEOUT, 2 s in the suites, vitest.config.ts). CI: 2; soak: 40.
    const selectorValues = inert
      .filter((item) => item.slot.name === 'ui_tap.selector.text' && /['"\]|/;$`]/.test(String(valueOf(item.hostile))))
      .filter((_, i, all) => i % Math.max(1, Math.floor(all.length / (FULL ? 40 : 2))) === 0)
      .slice(0, FULL ? 40 : 2);
    const clicksBefore = device.clicks().length;
    for (const { hostile } of selectorValues) {
      inertValues.add(String(valueOf(hostile)));
      const answer = await harness.call(
        'ui_tap',
        { selector: { text: valueOf(hostile) }, session_id: sessionId },
        30_000,
      );
      if (answer.envelope.error?.code !== 'UI_ELEMENT_NOT_FOUND')
        problems.push(`tap ${describeHostile(hostile)} → ${answer.envelope.error?.code ?? 'ok'}`);
    }
    expect(device.clicks().length).toBe(clicksBefore);
    // ui_scroll's container: searched the same way, nothing found, nothing swiped. CI: 1; soak: 20.
    const containerValues = inert
      .filter(
        (item) => item.slot.name === 'ui_scroll.selector.text' && /['"\]|/;$`]/.test(String(valueOf(item.hostile))),
      )
      .filter((_, i, all) => i % Math.max(1, Math.floor(all.length / (FULL ? 20 : 1))) === 0)
      .slice(0, FULL ? 20 : 1);
    const swipesBefore = device.log().filter((e) => e.kind === 'input' && / swipe /.test(e.detail)).length;
    for (const { hostile } of containerValues) {
      inertValues.add(String(valueOf(hostile)));
      const answer = await harness.call(
        'ui_scroll',
        { direction: 'right', selector: { text: valueOf(hostile) }, session_id: sessionId },
        30_000,
      );
      if (answer.envelope.error?.code !== 'UI_ELEMENT_NOT_FOUND')
        problems.push(`scroll ${describeHostile(hostile)} → ${answer.envelope.error?.code ?? 'ok'}`);
    }
    expect(device.log().filter((e) => e.kind === 'input' && / swipe /.test(e.detail)).length).toBe(swipesBefore);
    expect((await harness.call('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);

    // Package names that have the right shape: resolved (validated argv), not found, nothing started.
    for (const { hostile } of bySlot('app_open.package_name')) {
      inertValues.add(String(valueOf(hostile)));
      const answer = await harness.call('app_open', { package_name: valueOf(hostile) });
      if (answer.envelope.error?.code !== 'APP_NOT_FOUND')
        problems.push(`app_open ${describeHostile(hostile)} → ${answer.envelope.error?.code ?? 'ok'}`);
    }
    // The diagnostics toolset: package-shaped values are matched on the host only
    // (app_logs: not installed; app_crashes: no crash of theirs), never sent to the device's shell.
    for (const { hostile } of sample(bySlot('app_logs.package_name'), 10)) {
      inertValues.add(String(valueOf(hostile)));
      const answer = await harness.call('app_logs', { package_name: valueOf(hostile) });
      if (answer.envelope.error?.code !== 'APP_NOT_FOUND')
        problems.push(`app_logs ${describeHostile(hostile)} → ${answer.envelope.error?.code ?? 'ok'}`);
    }
    for (const { hostile } of sample(bySlot('app_crashes.package_name'), 10)) {
      const value = valueOf(hostile);
      if (typeof value === 'string') inertValues.add(value);
      const answer = await harness.call('app_crashes', withValue({}, 'package_name', hostile));
      if (!answer.envelope.ok)
        problems.push(`app_crashes ${describeHostile(hostile)} → ${answer.envelope.error?.code}`);
    }
    // Links that pass the grammar: one quoted word on the device's shell; none resolves on the
    // scenario except http(s), which Chrome takes; the device ran no second command.
    for (const { hostile } of sample(bySlot('app_open_link.url'), 15)) {
      inertValues.add(String(valueOf(hostile)));
      const answer = await harness.call('app_open_link', { url: valueOf(hostile) });
      if (!answer.envelope.ok && answer.envelope.error?.code !== 'APP_NOT_FOUND')
        problems.push(`app_open_link ${describeHostile(hostile)} → ${answer.envelope.error?.code}`);
    }
    for (const url of [
      'https://x.com/?a=1&reboot',
      'myapp://x#reboot&id',
      'myapp://~root?x=1&&id',
      'notes://history?x=1&y=2',
    ]) {
      inertValues.add(url);
      const answer = await harness.call('app_open_link', { url });
      if (!answer.envelope.ok && answer.envelope.error?.code !== 'APP_NOT_FOUND')
        problems.push(`app_open_link ${url} → ${answer.envelope.error?.code}`);
    }
    // include_raw: true asks for the XML; false, null and absent do not (every other value was refused above).
    for (const { hostile } of sample(bySlot('ui_get_tree.include_raw'), 5)) {
      const answer = await harness.call('ui_get_tree', withValue({}, 'include_raw', hostile));
      const wantsRaw = valueOf(hostile) === true;
      if (!answer.envelope.ok || 'ui_tree' in answer.envelope.data !== wantsRaw)
        problems.push(`include_raw ${describeHostile(hostile)} → ${answer.envelope.error?.code ?? 'raw XML'}`);
    }
    // app_install with a real APK reaches adb only as the closed list's `install -r <private copy>`;
    // the device refuses it (its own Chrome is newer), typed.
    const install = await harness.call('app_install', { apk: 'chrome.apk' }, 60_000);
    if (install.envelope.error?.code !== 'APP_INSTALL_FAILED')
      problems.push(`app_install chrome.apk → ${install.envelope.error?.code ?? 'ok'}`);
    if (!stack.trace().some((r) => r.argv.includes('install') && isClosedListArgv(r.argv, stack.serial)))
      problems.push('app_install: no closed-list install argv traced');
    // Tools refuse arguments they do not take, whatever they hold (docs/reference/contract.md, "Argument names"),
    // naming the key, before anything runs; a session_id, where a tool takes one, names no open flow
    // and is refused as such.
    const extras = {
      package_name: '; reboot',
      text: '$(reboot)',
      selector: { text: "' or '1'='1" },
      direction: '--help',
      session_id: '../../etc/passwd',
      include_raw: 'true',
    };
    const takesSession = new Set(['app_list_installed', 'screen_capture', 'settings_open_apps']);
    for (const tool of [
      'emulator_get_status',
      'app_list_installed',
      'screen_capture',
      'settings_open_apps',
      'device_list',
    ]) {
      const answer = await harness.call(tool, extras);
      const refused =
        answer.envelope.error?.code === 'INVALID_ARGUMENT' &&
        /^Invalid argument '(package_name|text|selector|direction|include_raw)'/.test(answer.envelope.error.message);
      if (!refused)
        problems.push(
          `${tool} with hostile extras → ${answer.envelope.error?.code ?? 'ok'}: ${answer.envelope.error?.message ?? ''}`,
        );
      if (takesSession.has(tool)) {
        const named = await harness.call(tool, { session_id: extras.session_id });
        if (named.envelope.error?.code !== 'INVALID_UI_SESSION')
          problems.push(`${tool} with a hostile session_id alone → ${named.envelope.error?.code ?? 'ok'}`);
      }
    }
    for (const value of Object.values(extras))
      inertValues.add(typeof value === 'string' ? value : JSON.stringify(value));
    expect(problems).toEqual([]);
    expect(await stack.appium?.sessionIds()).toEqual([]);
    process.stderr.write(
      `[reliability] injection: ${texts.length} hostile texts typed exactly, ${selectorValues.length} hostile selectors not found, ${containerValues.length} hostile scroll containers not found, ${bySlot('app_open.package_name').length} shaped packages not found\n`,
    );
  }, 600_000);

  it('the harness ran only the closed adb list, and no hostile value reached a shell on the device', () => {
    const trace = stack.trace();
    expect(trace.length).toBeGreaterThan(0);
    expect(trace.filter((r) => !isClosedListArgv(r.argv, stack.serial)).map((r) => r.argv.join(' '))).toEqual([]);
    const commands = shellCommands();
    const unknown = [
      ...new Set(commands.filter((c) => !isHarnessDeviceCommand(c) && !APPIUM_COMMANDS.some((re) => re.test(c)))),
    ];
    expect(unknown).toEqual([]);
    // No hostile value in any command the honest warm-up did not also run, except as the validated
    // package argument of the closed list (resolve-activity), which is where a package name belongs.
    const fresh = commands.filter((c) => !baseline.has(c) && !isHarnessDeviceCommand(c));
    const leaked = [...inertValues].filter((v) => v.trim().length >= 2 && fresh.some((c) => c.includes(v)));
    expect(leaked).toEqual([]);
    // The package-shaped values reached adb only as the validated resolve-activity argument.
    const resolved = trace.filter((r) => r.argv.includes('resolve-activity'));
    expect(resolved.every((r) => isClosedListArgv(r.argv, stack.serial))).toBe(true);
  });
});
