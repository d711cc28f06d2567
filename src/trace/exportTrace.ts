/**
 * `trace export`: the steps of a trace as something that runs again tomorrow.
 *
 * Which calls become steps: the acting calls that succeeded, in order (ui_tap, ui_type_text,
 * ui_scroll, device_back, and ui_wait when the flow format takes it). Reads (ui_get_tree,
 * screen_capture, status, lists, logs) are dropped; session management is the runner's; the first
 * successful app_open names the flow's app. A failed call changed nothing the next steps relied
 * on, so it is dropped too. A wait the model needed (a ui_wait that succeeded) is kept as a
 * ui_wait step where the flow format allows it; where it does not, the next step's own find
 * waits (a selector is found with a 10 s wait), which the step's note says.
 *
 * Targets: a ref lives only as long as the server that gave it, so each is replaced by the
 * selector of the entry it named in the summary the model had read (the summary's own selector).
 * An entry with only a ref (ambiguous, or nothing to select it by) has no stable name: the export
 * stops and names those steps, rather than write a replay that would tap something else.
 * Typed text is never in a trace: each typed value is written as a placeholder the user replaces
 * (the CLI says which steps), `[typed text N]` in a flow, an environment variable in wdio.
 */
import { buildLocator } from '../domain/selectors/locator.js';
import { expandIds } from '../domain/selectors/selector.js';
import { parseSelector } from '../domain/validation.js';
import type { FlowFile } from '../flow/flowFile.js';
import { stepToolNames } from '../flow/flowSteps.js';
import { TOOLSET_NAMES } from '../domain/toolsets.js';
import { entryNamed, selectorOfEntry, type Trace, type TraceCall } from './readTrace.js';

export class TraceExportError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[],
  ) {
    super(`${message}\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

const ACTING_TOOLS: ReadonlySet<string> = new Set([
  'ui_tap',
  'ui_type_text',
  'ui_scroll',
  'device_back',
  'device_key',
  'ui_wait',
]);

export interface ReplayStep {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly note: string;
  /** The trace line it came from. */
  readonly line: number;
  /** The app in front when the step ran (what an `id` stands for), as the trace last saw it. */
  readonly foreground: string;
  /** For ui_type_text: the placeholder's number and the length of the text typed. */
  readonly typed?: { readonly n: number; readonly characters: number };
}

export interface Replay {
  readonly packageName: string;
  readonly steps: readonly ReplayStep[];
  /** What the user must know: placeholders to fill, steps the format could not take. */
  readonly warnings: readonly string[];
}

export function replayOf(trace: Trace, allowed: ReadonlySet<string> = new Set(stepToolNames(TOOLSET_NAMES))): Replay {
  const opened = trace.calls.find(
    (call) => call.ok && call.tool === 'app_open' && typeof call.arguments.package_name === 'string',
  );
  const packageName = typeof opened?.arguments.package_name === 'string' ? opened.arguments.package_name : null;
  if (packageName === null) {
    throw new TraceExportError(`The trace ${trace.name} cannot be replayed:`, [
      'it opened no app (no successful app_open): a flow starts by opening one',
    ]);
  }
  const steps: ReplayStep[] = [];
  const warnings: string[] = [];
  const problems: string[] = [];
  let typedCount = 0;
  let pendingWait: string | null = null;
  let foreground = packageName;
  for (const call of trace.calls) {
    const before = foreground;
    const reported = call.envelope.data.foreground_package;
    if (typeof reported === 'string' && reported !== '') foreground = reported;
    if (!call.ok || !ACTING_TOOLS.has(call.tool) || (opened !== undefined && call.line <= opened.line)) continue;
    if (call.tool === 'ui_wait' && !allowed.has('ui_wait')) {
      pendingWait = `the model waited here first (ui_wait, line ${call.line}); the find's own 10 s wait stands in for it`;
      continue;
    }
    if (!allowed.has(call.tool)) {
      warnings.push(`line ${call.line}: ${call.tool} is not a step a flow file takes; it is left out`);
      continue;
    }
    const args = stableArguments(trace, call, problems);
    if (args === null) continue;
    const notes = [`${call.tool} of trace line ${call.line}`];
    if (pendingWait) notes.push(pendingWait);
    pendingWait = null;
    let typed: ReplayStep['typed'];
    if (call.tool === 'ui_type_text') {
      typedCount += 1;
      const characters = typeof call.arguments.typed_characters === 'number' ? call.arguments.typed_characters : 0;
      typed = { n: typedCount, characters };
      args.text = `[typed text ${typedCount}]`;
      notes.push(`the trace never keeps typed text: replace the placeholder with the ${characters} characters to type`);
      warnings.push(
        `step ${steps.length + 1} (line ${call.line}) types a placeholder: the trace never keeps typed text (${characters} characters were typed)`,
      );
    }
    steps.push({
      tool: call.tool,
      arguments: args,
      note: notes.join('; '),
      line: call.line,
      foreground: before,
      ...(typed ? { typed } : {}),
    });
  }
  if (problems.length > 0)
    throw new TraceExportError(`The trace ${trace.name} cannot be replayed as it ran:`, problems);
  if (steps.length === 0)
    throw new TraceExportError(`The trace ${trace.name} cannot be replayed:`, [
      'no acting call succeeded in it (reads are not replayed)',
    ]);
  return { packageName, steps, warnings };
}

/** The call's arguments for a new run: no session id, no typed-text bookkeeping, a selector for a ref. */
function stableArguments(trace: Trace, call: TraceCall, problems: string[]): Record<string, unknown> | null {
  const { session_id: _session, typed_characters: _typed, ...args } = call.arguments;
  const selector = args.selector as { ref?: unknown } | undefined;
  if (selector === undefined || typeof selector !== 'object' || selector === null || typeof selector.ref !== 'string')
    return args;
  const entry = entryNamed(trace.readRecord(call.read_line), selector);
  const stable = entry ? selectorOfEntry(entry) : null;
  if (stable === null) {
    const label = entry && typeof entry.label === 'string' ? ` ('${entry.label}')` : '';
    problems.push(
      entry
        ? `line ${call.line}: ${call.tool} acted on ref ${selector.ref}${label}, an entry the summary offered with no selector of its own (ambiguous, or nothing to select it by): no replay can find that element again. Give it a resource id or a content description in the app, or act on it by a selector that names it alone.`
        : `line ${call.line}: ${call.tool} acted on ref ${selector.ref}, which the summary read before it does not list: the trace cannot say which element it was.`,
    );
    return null;
  }
  return { ...args, selector: stable };
}

export function flowOf(trace: Trace, replay: Replay = replayOf(trace)): FlowFile {
  return {
    description: `Exported from the trace ${trace.name} (android-mcp-harness trace export): its successful actions, refs turned into the summary's selectors, reads left out.`,
    package_name: replay.packageName,
    steps: replay.steps.map((step) => ({
      tool: step.tool as FlowFile['steps'][number]['tool'],
      arguments: step.arguments,
      note: step.note,
    })),
  };
}

/**
 * A WebdriverIO test (mocha style; `webdriverio` its only dependency) with the same steps, through
 * Appium's UiAutomator2 locators. Run it with mocha: `APPIUM_URL=… ANDROID_UDID=… npx mocha FILE`.
 */
export const WDIO_STEP_TOOLS: ReadonlySet<string> = new Set([
  'ui_tap',
  'ui_type_text',
  'ui_scroll',
  'device_back',
  'ui_wait',
]);

export function wdioOf(trace: Trace, replay: Replay = replayOf(trace, WDIO_STEP_TOOLS)): string {
  const body = replay.steps.map((step, index) => wdioStep(step, index + 1)).join('\n');
  return `// Exported from the trace ${trace.name} by android-mcp-harness trace export --format wdio.
// Its successful actions, against Appium with UiAutomator2; reads are left out. Typed text is never
// in a trace: set TYPED_TEXT_<n> for each typed step (the placeholder is typed otherwise).
// Run: APPIUM_URL=http://127.0.0.1:4723 ANDROID_UDID=emulator-5554 npx mocha --timeout 120000 <this file>
// (or without mocha: node --test <this file>, Node's runner has the same describe/it/before/after).
import assert from 'node:assert/strict';
import { remote } from 'webdriverio';

const { describe, it, before, after } = globalThis.describe ? globalThis : await import('node:test');

const PACKAGE = ${JSON.stringify(replay.packageName)};
const FIND_TIMEOUT_MS = 10_000;

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
      const variable = `TYPED_TEXT_${step.typed?.n ?? n}`;
      action = `const element = await ${find};
    if ((await driver.getElementAttribute(element, 'focused')) !== 'true') await driver.elementClick(element);
    await driver.elementClear(element);
    await driver.elementSendKeys(element, process.env.${variable} ?? ${JSON.stringify(step.arguments.text)});`;
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
  return `  it(${title}, async function () {
    // ${step.note.replace(/\n/g, ' ')}
    ${action}
  });
`;
}
