import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseActionTarget } from '../../../domain/refs/refTarget.js';
import { observeFlag, optionalFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, selectorSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiTapTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_tap',
    toolset: 'core',
    title: 'Tap',
    description: 'Taps what the selector names: {target, element_label, after}; a miss lists what is offered.',
    inputSchema: z.object({
      selector: selectorSchema,
      long_press: z.boolean().optional(),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(false),
    execute: (args, context) => {
      const target = parseActionTarget(args.selector);
      const longPress = optionalFlag(args, 'long_press');
      const sessionId = optionalSessionId(args);
      return services.actions.tap(context, target, sessionId, longPress, observeFlag(args));
    },
  };
}
