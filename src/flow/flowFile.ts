/**
 * A reference flow: the steps a person would take in one app, written as the MCP calls a
 * model would make, minus the session plumbing the runner adds itself.
 *
 *   { "package_name": "com.example.app",
 *     "steps": [ { "tool": "ui_tap", "arguments": { "selector": { "text": "Login" } } } ] }
 *
 * Only the four in-flow actions are allowed as steps; `session_id` is injected by the runner,
 * so a file that carries one is refused (it would point at a session from another run).
 * Arguments are otherwise passed to the server as written: the server's own validation is
 * what a flow is meant to exercise.
 */
import { z } from 'zod';

export const FLOW_STEP_TOOLS = ['ui_tap', 'ui_type_text', 'ui_scroll', 'device_back'] as const;
export type FlowStepTool = (typeof FLOW_STEP_TOOLS)[number];

const stepSchema = z
  .object({
    tool: z.enum(FLOW_STEP_TOOLS, {
      error: () => `must be one of ${FLOW_STEP_TOOLS.join(', ')} (the runner opens the app, the session and reads the tree itself)`,
    }),
    arguments: z
      .record(z.string(), z.unknown())
      .default({})
      .superRefine((args, ctx) => {
        if (Object.hasOwn(args, 'session_id')) {
          ctx.addIssue({
            code: 'custom',
            path: ['session_id'],
            message: 'must not be given: the runner opens the flow session and injects its id',
          });
        }
      }),
    /** Free text for readers of the file and of the report. */
    note: z.string().optional(),
  })
  .strict();

export const flowFileSchema = z
  .object({
    /** Free text for readers of the file. */
    description: z.string().optional(),
    package_name: z.string().min(1, 'must name the application id to open, e.g. com.example.app'),
    steps: z.array(stepSchema).min(1, 'must list at least one step'),
  })
  .strict();

export type FlowFile = z.infer<typeof flowFileSchema>;
export type FlowStep = FlowFile['steps'][number];

export class FlowFileError extends Error {
  override readonly name = 'FlowFileError';
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length > 0 ? `${message}\n${problems.map((p) => `  - ${p}`).join('\n')}` : message);
  }
}

/** `steps[2].arguments.session_id` from zod's path. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

/** Parses the text of a flow file; throws FlowFileError naming each problem by its JSON path. */
export function parseFlowFile(text: string, source = 'flow file'): FlowFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FlowFileError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  return validateFlow(json, source);
}

/** Checks a flow already read as JSON (a task's `flow`, issue 17 §4) exactly as a flow file is checked. */
export function validateFlow(json: unknown, source = 'flow'): FlowFile {
  const parsed = flowFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
    throw new FlowFileError(`${source} is not a valid flow:`, problems);
  }
  return parsed.data;
}
