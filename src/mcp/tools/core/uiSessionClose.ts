import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseSessionId } from '../../../domain/validation.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiSessionCloseTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_session_close',
    toolset: 'core',
    title: 'End UI session',
    description: 'Ends the session, frees the device: {closed: true}.',
    inputSchema: z.object({ session_id: z.string() }),
    annotations: actor(false),
    execute: (args, context) => {
      const sessionId = parseSessionId(args.session_id);
      return services.sessions.close(context, sessionId);
    },
  };
}
