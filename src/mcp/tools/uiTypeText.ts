import { z } from 'zod';
import type { HarnessServices } from '../../application/HarnessServices.js';
import { parseSelector, parseText } from '../../domain/validation.js';
import { optionalSessionId } from '../arguments.js';
import { selectorSchema, sessionIdSchema } from '../schemas.js';
import { actor, type ToolDefinition } from '../ToolDefinition.js';

export function uiTypeTextTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_type_text',
    title: 'Type into a field',
    description:
      'Replaces the text of the input a selector names (an `input` entry of ui_get_tree, or {input_hint: "Search"}). ' +
      'Returns {target, characters_sent, foreground_package} and evidence. No newlines: submit with ui_tap.',
    inputSchema: z.object({
      selector: selectorSchema,
      text: z.string().describe('1 to 512 characters, no control characters.'),
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) => {
      const selector = parseSelector(args.selector);
      const text = parseText(args.text);
      const sessionId = optionalSessionId(args);
      return services.actions.typeText(context, selector, text, sessionId);
    },
  };
}
