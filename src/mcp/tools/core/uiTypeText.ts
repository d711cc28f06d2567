import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseText } from '../../../domain/validation.js';
import { parseActionTarget } from '../../../domain/refs/refTarget.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, selectorSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiTypeTextTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_type_text',
    toolset: 'core',
    title: 'Type text',
    description:
      'Replaces the text of the field a selector names (an input action or {input_hint: "Search"}), tapping it first if unfocused: ' +
      '{target, characters_sent, after}. Submit with ui_tap.',
    inputSchema: z.object({
      selector: selectorSchema,
      text: z.string().describe('1 to 512 characters, one line'),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) => {
      const target = parseActionTarget(args.selector);
      const text = parseText(args.text);
      const sessionId = optionalSessionId(args);
      return services.actions.typeText(context, target, text, sessionId, observeFlag(args));
    },
  };
}
