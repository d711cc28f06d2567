import { z } from 'zod';
import type { HarnessServices } from '../../application/HarnessServices.js';
import { parseSessionId } from '../../domain/validation.js';
import { actor, type ToolDefinition } from '../ToolDefinition.js';

export function uiSessionCloseTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_session_close',
    title: 'End a flow',
    description: 'Closes the flow opened by ui_session_open and frees the device. Returns {closed: true}.',
    inputSchema: z.object({ session_id: z.string().describe('The id from ui_session_open.') }),
    annotations: actor(false),
    execute: (args, context) => {
      const sessionId = parseSessionId(args.session_id);
      return services.flows.close(context, sessionId);
    },
  };
}
