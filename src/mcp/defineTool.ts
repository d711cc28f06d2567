import { z } from 'zod';
import type { HarnessServices } from '../application/HarnessServices.js';
import type { OperationContext, Outcome } from '../application/OperationRunner.js';
import type {
  ArgumentShape,
  Input,
  PreparedCall,
  ToolAnnotations,
  ToolDeclaration,
  ToolDefinition,
  ToolFacts,
} from './ToolDefinition.js';

/** A tool as its file writes it: the facts, each argument once, and what it does with them. */
interface ToolSpec<A extends ArgumentShape, R> extends Omit<ToolFacts, 'inputSchema'> {
  readonly annotations: ToolAnnotations;
  /** In the order the model reads them and the domain checks them: the first refusal is the one answered. */
  readonly arguments: A;
  /** The domain's rules between arguments, after each was parsed on its own: what `handle` receives. */
  readonly combine?: (input: Input<A>) => R;
  readonly handle: (services: HarnessServices, input: R, context: OperationContext) => Promise<Outcome>;
}

/**
 * Declares a tool once (the way microsoft/playwright-mcp's defineTool does): the published schema
 * is made of the arguments' own schemas, and the handler receives what the arguments' domain parses
 * made, typed from them, so no tool reads an argument by name and a misspelt one does not compile.
 */
export function defineTool<A extends ArgumentShape, R>(
  spec: ToolSpec<A, R> & { readonly combine: (input: Input<A>) => R },
): ToolDeclaration;
export function defineTool<A extends ArgumentShape>(spec: ToolSpec<A, Input<A>>): ToolDeclaration;
export function defineTool<A extends ArgumentShape, R>(spec: ToolSpec<A, R>): ToolDeclaration {
  const { arguments: declared, combine, handle, ...facts } = spec;
  const inputSchema = z.object(Object.fromEntries(Object.entries(declared).map(([name, arg]) => [name, arg.schema])));
  const parse = (args: Readonly<Record<string, unknown>>): { input: R; sessionId: string | undefined } => {
    const parsed: Record<string, unknown> = {};
    for (const [name, arg] of Object.entries(declared))
      parsed[name] = arg.parse(Object.hasOwn(args, name) ? args[name] : undefined);
    const each = parsed as Input<A>;
    // The one name every tool shares: the UI session a call runs in, known before the call runs.
    const sessionId = typeof parsed.session_id === 'string' ? parsed.session_id : undefined;
    return { input: combine ? combine(each) : (each as R), sessionId };
  };
  return Object.freeze({
    ...facts,
    inputSchema,
    check: (args: Readonly<Record<string, unknown>>) => void parse(args),
    bind: (services: HarnessServices): ToolDefinition =>
      Object.freeze({
        ...facts,
        inputSchema,
        prepare: (args: Readonly<Record<string, unknown>>): PreparedCall => {
          const { input, sessionId } = parse(args);
          return { sessionId, run: (context) => handle(services, input, context) };
        },
      }),
  });
}
