import { z } from 'zod';
import type { HarnessServices } from '../../application/HarnessServices.js';
import { optionalSessionId } from '../arguments.js';
import { sessionIdSchema } from '../schemas.js';
import { OBSERVER, type ToolDefinition } from '../ToolDefinition.js';

export function uiGetTreeTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_get_tree',
    title: 'Read the screen',
    description:
      'Summarises the current screen: foreground_package, texts, and `actions` ({selector, label, role, bounds}; ' +
      'no label: the selector\'s value is the label; no role: button). ' +
      'To act, send an action\'s `selector` unchanged to ui_tap or ui_type_text; `ambiguous` entries cannot be targeted, ' +
      '`bounds` ([left, top, width, height]) are for auditing only. Changes nothing.',
    inputSchema: z.object({
      include_raw: z.boolean().optional().describe('Also return the raw XML as `ui_tree` (large; rarely needed).'),
      session_id: sessionIdSchema,
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      // Only a literal `true` asks for the raw XML; any other value is inert.
      const includeRaw = args.include_raw === true;
      const sessionId = optionalSessionId(args);
      return services.tree.getTree(context, sessionId === undefined ? { includeRaw } : { includeRaw, sessionId });
    },
  };
}
