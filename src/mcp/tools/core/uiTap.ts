import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseActionTarget } from '../../../domain/refs/refTarget.js';
import { optionalFlag, optionalSessionId } from '../../arguments.js';
import { selectorSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiTapTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_tap',
    toolset: 'core',
    title: 'Tap',
    description:
      'Taps what the selector names (waits up to 10 s): {target, element_label, foreground_package} + evidence; a miss lists what is offered. Next: ui_get_tree.',
    inputSchema: z.object({ selector: selectorSchema, long_press: z.boolean().optional(), session_id: sessionIdSchema }),
    annotations: actor(false),
    execute: (args, context) => {
      const target = parseActionTarget(args.selector);
      const longPress = optionalFlag(args, 'long_press');
      const sessionId = optionalSessionId(args);
      return services.actions.tap(context, target, sessionId, longPress);
    },
  };
}
