import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { SCROLL_DIRECTIONS } from '../../../domain/gestures/scrollDirection.js';
import { parseDirection } from '../../../domain/validation.js';
import { observeFlag, optionalSelector, optionalSessionId } from '../../arguments.js';
import { containerSelectorSchema, observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiScrollTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_scroll',
    toolset: 'core',
    title: 'Scroll',
    description:
      "Scrolls one page (down: further down) of the selector's container (from scrollables), else of the largest that scrolls that way: {direction, moved, after}; moved false: an end.",
    inputSchema: z.object({
      direction: z.enum(SCROLL_DIRECTIONS),
      selector: containerSelectorSchema,
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(false),
    execute: (args, context) => {
      const direction = parseDirection(args.direction);
      const selector = optionalSelector(args);
      const sessionId = optionalSessionId(args);
      return services.actions.scroll(context, direction, selector, sessionId, observeFlag(args));
    },
  };
}
