/**
 * A reference flow: the steps a person would take in one app, written as the MCP calls a
 * model would make, minus the session plumbing the runner adds itself.
 *
 *   { "package_name": "com.example.app",
 *     "steps": [ { "tool": "ui_tap", "arguments": { "selector": { "text": "Login" } } } ] }
 *
 * The whole file is checked when it is loaded, before anything starts (no adb, no Appium, no
 * lock): its shape, then each step's tool (flowSteps.ts) and arguments through the tool's own
 * checks (callProblems: the argument names as runTool checks them, the tool's zod schema, the
 * tool's own validation), and every problem is reported at once with its step number. A flow
 * that would fail on its fifth step's typo must not first spend seconds opening an app.
 * `session_id` is injected by the runner, so a file that carries one is refused (it would point
 * at a session from another run), and so is a ref (it names an element of one screen of one
 * server run).
 */
import { z } from 'zod';
import { callProblems, describeIssue, toolsForChecking } from '../mcp/checkCall.js';
import { DEFAULT_TOOLSETS, TOOLSET_NAMES } from '../domain/toolsets.js';
import { stepToolNames, stepToolProblem, type FlowCheckOptions } from './flowSteps.js';
import { INPUT_NAME, placeholdersIn } from './flowInputs.js';

const STEP_KEYS = ['tool', 'arguments', 'note', 'expect', 'element'] as const;
const FLOW_KEYS = ['description', 'package_name', 'inputs', 'steps'] as const;

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/**
 * What the screen looked like after the step when it was recorded (docs/guide/usage.md, "Replays that
 * check where they are"): the package in front, and a few strings it showed.
 */
const expectSchema = z
  .object({
    package: z.string().optional(),
    texts: z.array(z.string()).max(8).optional(),
  })
  .strict();

/** The element the step acted on when it was recorded (src/domain/summary/actedElement.ts): what --repair looks for. */
const elementSchema = z
  .object({
    selectors: z.array(z.record(z.string(), z.unknown())).default([]),
    label: z.string().default(''),
    role: z.string().optional(),
    resource_id: z.string().optional(),
    class: z.string().optional(),
    bounds: boxSchema.optional(),
    package: z.string().optional(),
    ancestor: z.string().optional(),
    same_label: z.object({ index: z.number().int(), count: z.number().int() }).optional(),
    password: z.literal(true).optional(),
    source: z.string().optional(),
  })
  .loose();

const inputSchema = z
  .object({
    secret: z.boolean().optional(),
    description: z.string().optional(),
  })
  .strict();

/**
 * The file's shape. `tool` is any string here, so that a wrong one is reported by the step rules
 * (which say why and what to use instead); `tools` makes it the list, for a published schema.
 */
function flowSchema(tools?: readonly [string, ...string[]]) {
  const step = z
    .object({
      tool: (tools ? z.enum(tools) : z.string()).describe(
        'An acting tool (or ui_wait) of a toolset the server serves, e.g. ui_tap',
      ),
      arguments: z.record(z.string(), z.unknown()).default({}).describe("The tool's own arguments, without session_id"),
      /** Free text for readers of the file and of the report. */
      note: z.string().optional(),
      expect: expectSchema.optional(),
      element: elementSchema.optional(),
    })
    .strict();
  return z
    .object({
      /** Free text for readers of the file. */
      description: z.string().optional(),
      package_name: z.string(),
      /** Named values the steps use as `${name}` (flowInputs.ts). */
      inputs: z.record(z.string().regex(INPUT_NAME), inputSchema).optional(),
      steps: z.array(step).min(1),
    })
    .strict();
}

export const flowFileSchema = flowSchema();

/** The flow as /openapi.json publishes it: `tool` is one of the step tools of every toolset. */
export function publishedFlowSchema(): ReturnType<typeof flowSchema> {
  const [first, ...rest] = stepToolNames(TOOLSET_NAMES);
  return flowSchema(first === undefined ? undefined : [first, ...rest]);
}

export type FlowFile = z.infer<typeof flowFileSchema>;
export type FlowStep = FlowFile['steps'][number];
export type FlowExpect = z.infer<typeof expectSchema>;
export type FlowElement = z.infer<typeof elementSchema>;

export class FlowFileError extends Error {
  override readonly name = 'FlowFileError';
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length > 0 ? `${message}\n${problems.map((p) => `  - ${p}`).join('\n')}` : message);
  }
}

/** The server `flow FILE.json` starts serves the core toolset unless told otherwise. */
export const CORE_ONLY: FlowCheckOptions = Object.freeze({
  toolsets: DEFAULT_TOOLSETS,
  enable: (toolset: string) => `run the flow with --toolsets ${toolset} (or ANDROID_MCP_TOOLSETS=${toolset})`,
});

/** Parses the text of a flow file; throws FlowFileError naming every problem, by step number. */
export async function parseFlowFile(
  text: string,
  source = 'flow file',
  options: FlowCheckOptions = CORE_ONLY,
): Promise<FlowFile> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FlowFileError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  return validateFlow(json, source, options);
}

/** Checks a flow already read as JSON (a task's `flow`) exactly as a flow file is checked. */
export async function validateFlow(
  json: unknown,
  source = 'flow',
  options: FlowCheckOptions = CORE_ONLY,
): Promise<FlowFile> {
  const parsed = flowFileSchema.safeParse(json, { reportInput: true });
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => shapeProblem(issue, json));
  if (isRecord(json)) {
    if (typeof json.package_name === 'string') problems.push(...(await packageProblems(json.package_name)));
    if (Array.isArray(json.steps)) {
      const declared = isRecord(json.inputs) ? Object.keys(json.inputs) : [];
      for (const [index, step] of json.steps.entries()) {
        problems.push(...(await stepProblems(index, step, options)));
        problems.push(...inputProblems(index, step, declared));
      }
    }
  }
  // Zod reports a problem of a step's shape first; the step's own problems follow in step order.
  problems.sort((a, b) => stepNumberOf(a) - stepNumberOf(b));
  if (!parsed.success || problems.length > 0) throw new FlowFileError(`${source} is not a valid flow:`, problems);
  return parsed.data;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** 0 for the flow's own keys, n for "step n …", so that a sort keeps each step's problems together. */
function stepNumberOf(problem: string): number {
  const match = /^step (\d+)/.exec(problem);
  return match ? Number(match[1]) : 0;
}

function stepLabel(index: number, step: unknown): string {
  const tool = isRecord(step) && typeof step.tool === 'string' ? ` (${step.tool.slice(0, 64)})` : '';
  return `step ${index + 1}${tool}`;
}

/** A problem of the file's own shape (not of a tool's arguments), in words. */
function shapeProblem(issue: z.core.$ZodIssue, json: unknown): string {
  const [first, index, ...rest] = issue.path;
  if (first === 'steps' && typeof index === 'number') {
    const step: unknown = isRecord(json) && Array.isArray(json.steps) ? json.steps[index] : undefined;
    const text = describeIssue({ ...issue, path: rest }, 'the step');
    const keys = issue.code === 'unrecognized_keys' ? ` (a step takes only ${STEP_KEYS.join(', ')})` : '';
    return `${stepLabel(index, step)}: ${text}${keys}`;
  }
  const text = describeIssue(issue, 'the flow');
  if (issue.code === 'unrecognized_keys') return `${text} (a flow takes only ${FLOW_KEYS.join(', ')})`;
  if (first === 'package_name' && issue.path.length === 1)
    return `${text}: name the application id to open, e.g. com.example.app`;
  if (first === 'steps' && issue.path.length === 1)
    return `${text}: list the steps, e.g. [{"tool": "ui_tap", "arguments": {"selector": {"text": "Login"}}}]`;
  return text;
}

/** package_name is what the runner sends to app_open: checked by app_open's own validation. */
async function packageProblems(packageName: string): Promise<string[]> {
  const appOpen = toolsForChecking().get('app_open');
  if (!appOpen) return [];
  return (await callProblems(appOpen, { package_name: packageName })).map((problem) => `package_name: ${problem}`);
}

/** Every `${name}` of a step's arguments must be a declared input: an undeclared one would be typed as it is. */
function inputProblems(index: number, step: unknown, declared: readonly string[]): string[] {
  if (!isRecord(step)) return [];
  return [...new Set(placeholdersIn(step.arguments))]
    .filter((name) => !declared.includes(name))
    .map(
      (name) =>
        `${stepLabel(index, step)}: \${${name.slice(0, 40)}} names no input of the flow; declare it in "inputs" (e.g. "inputs": {"${INPUT_NAME.test(name) ? name : 'name'}": {}})`,
    );
}

async function stepProblems(index: number, step: unknown, options: FlowCheckOptions): Promise<string[]> {
  if (!isRecord(step) || typeof step.tool !== 'string') return [];
  const label = stepLabel(index, step);
  const tool = toolsForChecking().get(step.tool);
  const toolProblem = stepToolProblem(step.tool, tool, options);
  if (toolProblem !== null || tool === undefined) return toolProblem === null ? [] : [`${label}: ${toolProblem}`];
  const args = step.arguments === undefined ? {} : step.arguments;
  if (!isRecord(args)) return []; // its shape problem is reported already
  const problems: string[] = [];
  if (Object.hasOwn(args, 'session_id'))
    problems.push('session_id must not be given: the runner opens the UI session and puts its id in every step');
  if (isRecord(args.selector) && args.selector.ref !== undefined) {
    problems.push(
      'selector.ref must not be given: a ref names one element of one screen of one server run; copy the selector keys ui_get_tree offers beside it',
    );
  }
  problems.push(...(await callProblems(tool, args, ['session_id'])));
  return problems.map((problem) => `${label}: ${problem}`);
}
