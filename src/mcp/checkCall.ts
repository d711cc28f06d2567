/**
 * Checks a tool call's arguments without making it, for lists of calls that must be refused as a
 * whole before anything starts (a flow file, a flow task). Nothing here is a validator of its own:
 *
 * 1. the argument names, by checkArgumentNames exactly as runTool checks them, one name at a time
 *    so that every bad name is reported;
 * 2. the tool's own zod input schema (what tools/list publishes), every issue at once, in words;
 * 3. when both pass, the tool's own parse (its declared arguments, the domain's rules), the very
 *    parse a call runs before it reaches a service; no service exists here.
 */
import type { z } from 'zod';
import { HarnessError } from '../domain/errors.js';
import { checkArgumentNames } from '../domain/validation.js';
import { safePreview } from '../domain/tree/nodeFacts.js';
import { declaredArguments } from './runTool.js';
import type { ToolDeclaration } from './ToolDefinition.js';
import { TOOL_DECLARATIONS } from './tools/index.js';

const checking: ReadonlyMap<string, ToolDeclaration> = new Map(TOOL_DECLARATIONS.map((tool) => [tool.name, tool]));

/** Every tool the server knows, whatever the toolsets, as declared (no service behind them). */
export function toolsForChecking(): ReadonlyMap<string, ToolDeclaration> {
  return checking;
}

/**
 * What is wrong with `args` for `tool`, each problem a sentence; empty when the call would pass the
 * tool's validation. `withhold` names arguments the caller supplies itself (a UI session's session_id):
 * they are neither offered as names to send nor checked here; the caller judges them.
 */
export function callProblems(
  tool: ToolDeclaration,
  sent: Readonly<Record<string, unknown>>,
  withhold: readonly string[] = [],
): Promise<string[]> {
  // A promise still: the flow loader awaits it with its other checks.
  return Promise.resolve(problemsOf(tool, sent, withhold));
}

function problemsOf(
  tool: ToolDeclaration,
  sent: Readonly<Record<string, unknown>>,
  withhold: readonly string[],
): string[] {
  const declared = declaredArguments(tool).filter((name) => !withhold.includes(name));
  const args = Object.fromEntries(Object.entries(sent).filter(([key]) => !withhold.includes(key)));
  const problems: string[] = [];
  for (const key of Object.keys(args)) {
    try {
      checkArgumentNames({ [key]: args[key] }, declared, tool.name);
    } catch (error) {
      problems.push(messageOf(error));
    }
  }
  const parsed = tool.inputSchema.safeParse(args, { reportInput: true });
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => describeIssue(issue)));
  if (problems.length > 0) return problems;
  try {
    tool.check(args);
  } catch (error) {
    return [messageOf(error)];
  }
  return [];
}

function messageOf(error: unknown): string {
  if (error instanceof HarnessError) return error.message;
  throw error;
}

/** `selector.within.text` */
function pathOf(issue: z.core.$ZodIssue, root: string): string {
  return issue.path.map(String).join('.') || root;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return `'${safePreview(value, 30)}'`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : `a ${typeof value}`;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/**
 * One zod issue as a person reads it: what is wrong, what was sent, what is accepted. `root` names
 * the value itself when the issue has no path. The schema must be parsed with `reportInput: true`.
 */
export function describeIssue(issue: z.core.$ZodIssue, root = 'the arguments'): string {
  const where = pathOf(issue, root);
  const input = 'input' in issue ? issue.input : undefined;
  if (input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value'))
    return `${where} is missing`;
  switch (issue.code) {
    case 'invalid_type':
      return `${where} must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${shown(input)}`;
    case 'invalid_value':
      return `${where} ${shown(input)} is not one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'array')
        return Number(issue.minimum) === 1
          ? `${where} is empty`
          : `${where} must list at least ${String(issue.minimum)}`;
      return `${where} must be at least ${String(issue.minimum)}${issue.inclusive === false ? ' (excluded)' : ''}, not ${shown(input)}`;
    case 'too_big':
      return `${where} must be at most ${String(issue.maximum)}${issue.inclusive === false ? ' (excluded)' : ''}, not ${shown(input)}`;
    case 'unrecognized_keys':
      return `${where} has the unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => shown(key)).join(', ')}`;
    default:
      return `${where}: ${issue.message}`;
  }
}
