import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseDirection } from '../../../domain/validation.js';
import { optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiScrollTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_scroll',
    toolset: 'core',
    title: 'Scroll',
    description:
      'Scrolls one page (down: further down), above the keyboard: {direction, moved, foreground_package} + evidence; moved false: nothing moved (an end, or nothing scrollable). Next: ui_get_tree.',
    inputSchema: z.object({ direction: z.enum(['up', 'down']), session_id: sessionIdSchema }),
    annotations: actor(false),
    execute: (args, context) => {
      const direction = parseDirection(args.direction);
      const sessionId = optionalSessionId(args);
      return services.actions.scroll(context, direction, sessionId);
    },
  };
}
