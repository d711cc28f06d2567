/**
 * `trace export`: the steps of a trace as something that runs again tomorrow.
 *
 * Which calls become steps: every acting call that succeeded, in order: each step tool of every
 * toolset (ui_tap, ui_type_text, ui_scroll, device_back, app_open, settings_open_apps, the opt-in
 * acting tools), and ui_wait where the format takes it. Reads (ui_get_tree, screen_capture,
 * status, lists, logs) are dropped; session management is the runner's. A failed call changed
 * nothing the next steps relied on, so it is dropped too, with a warning naming it. A session
 * that began with app_open names that app as the flow's start; any other starts with the app that
 * was in front when it began (the first read's package, else the first acted element's).
 *
 * Targets: a ref lives only as long as the server that gave it, so each is replaced by the
 * element the server recorded on that very call line (`element`, src/domain/summary/actedElement.ts):
 * the selector its summary entry offered, never a reconstruction from an earlier read. A ref whose
 * element no selector named alone (ambiguous, or nothing to select it by) has no stable name: the
 * export stops and names those steps, rather than write a replay that would tap something else.
 * Each step keeps that element (what `flow --repair` looks for) and the screen its answer showed
 * after it (`expect`). Typed text is never in a trace: each typed value becomes a named input of
 * the flow (`${email}`), secret when the field is a password field or says so.
 */
import { buildLocator } from '../domain/selectors/locator.js';
import { expandIds } from '../domain/selectors/selector.js';
import { parseSelector } from '../domain/validation.js';
import type { FlowElement, FlowExpect, FlowFile } from '../flow/flowFile.js';
import { inputVariable } from '../flow/flowInputs.js';
import { ScreenBook } from '../flow/screenBook.js';
import { stepToolNames } from '../flow/flowSteps.js';
import { TOOLSET_NAMES } from '../domain/toolsets.js';
import type { Trace, TraceCall } from './readTrace.js';
import { expectedAfter, inputNameFor, isSecretLabel } from './export/stepFacts.js';

export class TraceExportError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[],
  ) {
    super(`${message}\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Calls that read and change nothing: dropped without a word. */
const READ_TOOLS: ReadonlySet<string> = new Set([
  'ui_get_tree',
  'screen_capture',
  'status',
  'device_list',
  'app_list',
  'logs_read',
  'ui_session_open',
  'ui_session_close',
]);

export interface ReplayStep {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly note: string;
  /** The trace line it came from. */
  readonly line: number;
  /** The app in front when the step ran (what an `id` stands for), as the trace last saw it. */
  readonly foreground: string;
  /** For ui_type_text: the flow input its text becomes. */
  readonly input?: { readonly name: string; readonly secret: boolean; readonly characters: number };
  /** The screen after the step, as its answer showed it. */
  readonly expect?: FlowExpect;
  /** The element the step acted on, as the server recorded it. */
  readonly element?: FlowElement;
}

export interface Replay {
  readonly packageName: string;
  readonly steps: readonly ReplayStep[];
  /** The flow's inputs by name. */
  readonly inputs: Readonly<Record<string, { readonly secret?: true }>>;
  /** What the user must know: inputs to give, calls left out and why. */
  readonly warnings: readonly string[];
}

/** Every step tool of every toolset: what a flow file takes. */
export function flowStepTools(): ReadonlySet<string> {
  return new Set(stepToolNames(TOOLSET_NAMES));
}

export function replayOf(trace: Trace, allowed: ReadonlySet<string> = flowStepTools()): Replay {
  const start = startOf(trace);
  if (start.packageName === null) {
    throw new TraceExportError(`The trace ${trace.name} cannot be replayed:`, [
      'it says no app: no app_open, no read naming the app in front, no element acted on. A flow starts by opening an app.',
    ]);
  }
  const steps: ReplayStep[] = [];
  const warnings: string[] = [];
  const problems: string[] = [];
  const inputs: Record<string, { secret?: true }> = {};
  const book = new ScreenBook();
  let pendingWait: string | null = null;
  let foreground = start.packageName;
  for (const call of trace.calls) {
    const before = foreground;
    const data = call.envelope.data;
    if (call.ok) book.note(data);
    const reported = data.foreground_package;
    if (typeof reported === 'string' && reported !== '') foreground = reported;
    if (call.line <= start.skipThrough || READ_TOOLS.has(call.tool)) continue;
    if (!call.ok) {
      if (allowed.has(call.tool) || call.tool === 'ui_wait')
        warnings.push(
          `line ${call.line}: ${call.tool} failed (${call.error_code ?? 'an error'}) and is left out: a failed call changed nothing the next steps relied on`,
        );
      continue;
    }
    if (call.tool === 'ui_wait' && !allowed.has('ui_wait')) {
      pendingWait = `the model waited here first (ui_wait, line ${call.line}); the find's own 10 s wait stands in for it`;
      continue;
    }
    if (!allowed.has(call.tool)) {
      warnings.push(`line ${call.line}: ${call.tool} is not a step this format takes; it is left out`);
      continue;
    }
    const element = elementOf(call);
    const args = stableArguments(call, element, problems);
    if (args === null) continue;
    const notes = [`${call.tool} of trace line ${call.line}`];
    if (pendingWait) notes.push(pendingWait);
    pendingWait = null;
    let input: ReplayStep['input'];
    if (call.tool === 'ui_type_text') {
      const label = element?.label ?? selectorValue(args.selector);
      const name = inputNameFor(label, new Set(Object.keys(inputs)));
      const secret = element?.password === true || isSecretLabel(label);
      inputs[name] = secret ? { secret: true } : {};
      const characters = typeof call.arguments.typed_characters === 'number' ? call.arguments.typed_characters : 0;
      input = { name, secret, characters };
      args.text = `\${${name}}`;
      notes.push(`types the input ${name}${secret ? ' (secret)' : ''}: ${characters} characters were typed`);
    }
    const expect = expectedAfter(book.note(call.ok ? data : undefined), typeof reported === 'string' ? reported : null);
    steps.push({
      tool: call.tool,
      arguments: args,
      note: notes.join('; '),
      line: call.line,
      foreground: before,
      ...(input ? { input } : {}),
      ...(expect ? { expect } : {}),
      ...(element ? { element } : {}),
    });
  }
  if (problems.length > 0)
    throw new TraceExportError(`The trace ${trace.name} cannot be replayed as it ran:`, problems);
  if (steps.length === 0)
    throw new TraceExportError(`The trace ${trace.name} cannot be replayed:`, [
      'no acting call succeeded in it (reads are not replayed)',
    ]);
  const named = Object.entries(inputs);
  if (named.length > 0)
    warnings.push(
      `the flow takes ${named.length} input${named.length === 1 ? '' : 's'} (typed text is never kept in a trace): ${named
        .map(([name, declared]) => `${name}${declared.secret ? ' (secret)' : ''}`)
        .join(', ')}; give each with --input NAME=VALUE or ${named.map(([name]) => inputVariable(name)).join(', ')}`,
    );
  if (start.warning) warnings.unshift(start.warning);
  return { packageName: start.packageName, steps, inputs, warnings };
}

/**
 * Where the replay starts: the app of a first app_open (which is then the runner's own call, not a
 * step), else the app in front when the trace began: the first read's package, else the package of
 * the first element acted on, else the package the first acting call left in front.
 */
function startOf(trace: Trace): { packageName: string | null; skipThrough: number; warning?: string } {
  const firstActing = trace.calls.find((call) => call.ok && !READ_TOOLS.has(call.tool));
  if (firstActing?.tool === 'app_open' && typeof firstActing.arguments.package_name === 'string')
    return { packageName: firstActing.arguments.package_name, skipThrough: firstActing.line };
  const firstRead = trace.calls.find(
    (call) =>
      call.ok &&
      READ_TOOLS.has(call.tool) &&
      (firstActing === undefined || call.line < firstActing.line) &&
      typeof call.envelope.data.foreground_package === 'string',
  );
  if (firstRead) return { packageName: firstRead.envelope.data.foreground_package as string, skipThrough: 0 };
  const element = firstActing ? elementOf(firstActing) : undefined;
  if (element?.package) return { packageName: element.package, skipThrough: 0 };
  const after = firstActing?.envelope.data.foreground_package;
  if (typeof after === 'string' && after !== '')
    return {
      packageName: after,
      skipThrough: 0,
      warning: `the trace does not say which app was in front when it began; the flow starts with ${after}, the app in front after its first step (line ${firstActing?.line ?? 0})`,
    };
  return { packageName: null, skipThrough: 0 };
}

/** The element the server recorded on the call's own line. */
function elementOf(call: TraceCall): FlowElement | undefined {
  const element = (call as { element?: unknown }).element;
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const record = element as Record<string, unknown>;
  return {
    ...(record as FlowElement),
    selectors: Array.isArray(record.selectors) ? (record.selectors as Record<string, unknown>[]) : [],
    label: typeof record.label === 'string' ? record.label : '',
  };
}

function selectorValue(selector: unknown): string {
  if (typeof selector !== 'object' || selector === null) return '';
  const value = Object.entries(selector).find(([key]) => key !== 'within')?.[1];
  return typeof value === 'string' ? value : '';
}

/** The call's arguments for a new run: no session id, no typed-text bookkeeping, a selector for a ref. */
function stableArguments(
  call: TraceCall,
  element: FlowElement | undefined,
  problems: string[],
): Record<string, unknown> | null {
  const { session_id: _session, typed_characters: _typed, ...args } = call.arguments;
  const selector = args.selector as { ref?: unknown } | undefined;
  if (selector === undefined || typeof selector !== 'object' || selector === null || typeof selector.ref !== 'string')
    return args;
  const stable = element?.selectors[0];
  if (stable === undefined) {
    problems.push(
      element
        ? `line ${call.line}: ${call.tool} acted on ref ${selector.ref} ('${element.label}'), an element no selector named alone when it ran (ambiguous, or nothing to select it by): no replay can find that element again. Give it a resource id or a content description in the app, or act on it by a selector that names it alone.`
        : `line ${call.line}: ${call.tool} acted on ref ${selector.ref}, and its line records no element (a trace written before elements were recorded): record the session again.`,
    );
    return null;
  }
  return { ...args, selector: { ...stable } };
}

export function flowOf(trace: Trace, replay: Replay = replayOf(trace)): FlowFile {
  return {
    description: `Exported from the trace ${trace.name} (android-mcp-harness trace export): its successful actions, refs turned into the selectors the server recorded, typed text into inputs, reads left out.`,
    package_name: replay.packageName,
    ...(Object.keys(replay.inputs).length > 0 ? { inputs: replay.inputs } : {}),
    steps: replay.steps.map((step) => ({
      tool: step.tool as FlowFile['steps'][number]['tool'],
      arguments: step.arguments,
      note: step.note,
      ...(step.expect ? { expect: step.expect } : {}),
      ...(step.element ? { element: step.element } : {}),
    })),
  };
}

/**
 * A WebdriverIO test (mocha style; `webdriverio` its only dependency) with the same steps, through
 * Appium's UiAutomator2 locators. Its header says what it needs and how to run it (wdioRunLines).
 */
export const WDIO_STEP_TOOLS: ReadonlySet<string> = new Set([
  'ui_tap',
  'ui_type_text',
  'ui_scroll',
  'device_back',
  'ui_wait',
]);

/** How the exported test is run, as its header prints it (computed where the export runs). */
export interface WdioRunLines {
  /** The command that starts Appium as the harness starts its own, with the SDK root appium-adb needs. */
  readonly appium: string;
  /** The command that runs the test. */
  readonly run: string;
}

export function wdioOf(
  trace: Trace,
  replay: Replay = replayOf(trace, WDIO_STEP_TOOLS),
  lines: WdioRunLines = { appium: 'ANDROID_HOME=<sdk> npx appium --address 127.0.0.1 --port 4723', run: '' },
): string {
  const body = replay.steps.map((step, index) => wdioStep(step, index + 1)).join('\n');
  const inputs = Object.keys(replay.inputs).map((name) => [name, inputVariable(name)] as const);
  const run =
    lines.run ||
    `${inputs.map(([, variable]) => `${variable}=… `).join('')}APPIUM_URL=http://127.0.0.1:4723 ANDROID_UDID=emulator-5554 node --test <this file>`;
  return `// Exported from the trace ${trace.name} by android-mcp-harness trace export --format wdio.
// Its successful actions, against Appium with UiAutomator2; reads are left out, and each step checks
// the screen it recorded after it. Typed text is never in a trace: each typed value is an input
// read from the environment (${inputs.length > 0 ? inputs.map(([, variable]) => variable).join(', ') : 'none here'}).
// Needs: webdriverio, and Appium 3 with the UiAutomator2 driver (both are the harness's own
// dependencies). appium-adb refuses every session unless ANDROID_HOME names an Android SDK folder
// whose platform-tools/adb is the adb in use; the harness sets it for the Appium it starts, so:
// Appium: ${lines.appium}
// Run: ${run}
// (or with mocha: npx mocha --timeout 120000 <this file>; describe/it/before/after are the same).
import assert from 'node:assert/strict';
import { remote } from 'webdriverio';

const { describe, it, before, after } = globalThis.describe ? globalThis : await import('node:test');

const PACKAGE = ${JSON.stringify(replay.packageName)};
const FIND_TIMEOUT_MS = 10_000;
/** The flow's inputs: name → environment variable. */
const INPUTS = ${JSON.stringify(Object.fromEntries(inputs))};
const missing = Object.values(INPUTS).filter((variable) => process.env[variable] === undefined);
// Refused before any session: a replay must never type a placeholder.
if (missing.length > 0) throw new Error('missing inputs: set ' + missing.join(', ') + ' (nothing was started)');
const input = (name) => process.env[INPUTS[name]];

/** Finds what the harness's locator finds (the strategy and value were built by the harness), with its 10 s wait. */
async function find(driver, [using, value], selector) {
  const deadline = Date.now() + FIND_TIMEOUT_MS;
  for (;;) {
    const found = await driver.findElements(using, value);
    if (found.length > 0) return Object.values(found[0])[0];
    // The harness answers UI_ELEMENT_NOT_FOUND when the element does not come within its wait.
    if (Date.now() > deadline) throw new Error('UI_ELEMENT_NOT_FOUND: no element matches ' + JSON.stringify(selector));
    await driver.pause(250);
  }
}

/** The screen recorded after a step: its package, and at least half of its texts (the flow runner's rule). */
async function expectScreen(driver, packageName, texts) {
  const deadline = Date.now() + FIND_TIMEOUT_MS;
  for (;;) {
    const current = await driver.getCurrentPackage();
    const source = current === packageName || !packageName ? await driver.getPageSource() : '';
    const attribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const found = texts.filter((text) => source.includes('"' + attribute(text) + '"'));
    if ((!packageName || current === packageName) && found.length >= Math.ceil(texts.length / 2)) return;
    if (Date.now() > deadline)
      throw new Error('SCREEN_MISMATCH: expected ' + (packageName || 'any package') + ' showing ' + JSON.stringify(texts) + '; found ' + current + ' showing ' + JSON.stringify(found));
    await driver.pause(250);
  }
}

async function scroll(driver, direction) {
  const { width, height } = await driver.getWindowSize();
  const [x1, y1, x2, y2] = direction === 'down' ? [0.5, 0.7, 0.5, 0.3] : direction === 'up' ? [0.5, 0.3, 0.5, 0.7] : direction === 'right' ? [0.8, 0.5, 0.2, 0.5] : [0.2, 0.5, 0.8, 0.5];
  await driver.action('pointer', { parameters: { pointerType: 'touch' } })
    .move({ x: Math.round(width * x1), y: Math.round(height * y1) }).down()
    .move({ x: Math.round(width * x2), y: Math.round(height * y2), duration: 600 }).up().perform();
}

describe(${JSON.stringify(`replay of ${trace.name}`)}, function () {
  let driver;

  before(async function () {
    const url = new URL(process.env.APPIUM_URL ?? 'http://127.0.0.1:4723');
    driver = await remote({
      hostname: url.hostname,
      port: Number(url.port || 4723),
      path: url.pathname === '/' ? '/' : url.pathname,
      logLevel: 'warn',
      capabilities: {
        platformName: 'Android',
        'appium:automationName': 'UiAutomator2',
        'appium:udid': process.env.ANDROID_UDID ?? 'emulator-5554',
        'appium:noReset': true,
        ...(process.env.ANDROID_ADB_SERVER_PORT ? { 'appium:adbPort': Number(process.env.ANDROID_ADB_SERVER_PORT) } : {}),
      },
    });
    await driver.activateApp(PACKAGE);
    assert.equal(await driver.getCurrentPackage(), PACKAGE);
  });

  after(async function () {
    await driver?.deleteSession();
  });

${body}
});
`;
}

function wdioStep(step: ReplayStep, n: number): string {
  const title = JSON.stringify(
    `step ${n}: ${step.tool}${step.arguments.selector ? ` ${JSON.stringify(step.arguments.selector)}` : ''}`,
  );
  const selector = step.arguments.selector;
  // The harness's own locator for the selector (ids expanded with the app in front then).
  const find =
    selector === undefined
      ? ''
      : (() => {
          const locator = buildLocator(expandIds(parseSelector(selector), step.foreground));
          return `find(driver, ${JSON.stringify([locator.using, locator.value])}, ${JSON.stringify(selector)})`;
        })();
  let action: string;
  switch (step.tool) {
    case 'ui_tap':
      action =
        step.arguments.long_press === true
          ? `await driver.execute('mobile: longClickGesture', { elementId: await ${find}, duration: 1500 });`
          : `await driver.elementClick(await ${find});`;
      break;
    case 'ui_type_text': {
      const text = step.input ? `input(${JSON.stringify(step.input.name)})` : JSON.stringify(step.arguments.text);
      action = `const element = await ${find};
    if ((await driver.getElementAttribute(element, 'focused')) !== 'true') await driver.elementClick(element);
    await driver.elementClear(element);
    await driver.elementSendKeys(element, ${text});`;
      break;
    }
    case 'ui_scroll':
      action = `${find ? `await ${find};\n    ` : ''}await scroll(driver, ${JSON.stringify(step.arguments.direction)});`;
      break;
    case 'device_back':
      action = 'await driver.back();';
      break;
    case 'ui_wait':
      action = find ? `await ${find};` : 'await driver.pause(500);';
      break;
    default:
      action = `// ${step.tool} has no WebdriverIO form here; left out.`;
  }
  const check = step.expect
    ? `\n    await expectScreen(driver, ${JSON.stringify(step.expect.package ?? '')}, ${JSON.stringify(step.expect.texts ?? [])});`
    : '';
  return `  it(${title}, async function () {
    // ${step.note.replace(/\n/g, ' ')}
    ${action}${check}
  });
`;
}
