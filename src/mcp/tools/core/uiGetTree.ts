import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { optionalFlag, optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function uiGetTreeTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_get_tree',
    toolset: 'core',
    title: 'Read screen',
    description:
      'Reads the screen: foreground_package, texts, actions [{selector, label (else the selector\'s value), role (else button), ' +
      'bounds [left, top, width, height], audit only}]. To act, pass a selector unchanged to ui_tap or ui_type_text, not an `ambiguous` one.',
    inputSchema: z.object({
      include_raw: z.boolean().optional().describe('Adds the raw XML as ui_tree (large)'),
      session_id: sessionIdSchema,
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      // true or false only: "yes" used to be read silently as false (issue 11).
      const includeRaw = optionalFlag(args, 'include_raw');
      const sessionId = optionalSessionId(args);
      return services.tree.getTree(context, sessionId === undefined ? { includeRaw } : { includeRaw, sessionId });
    },
  };
}
