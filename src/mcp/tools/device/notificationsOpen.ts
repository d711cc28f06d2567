import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function notificationsOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'notifications_open',
    toolset: 'device',
    title: 'Open the notification shade',
    description:
      'Pulls the notification shade down: the screen as ui_get_tree gives it + evidence. Tap a notification by its ref; device_back closes the shade.',
    inputSchema: z.object({ session_id: sessionIdSchema }),
    annotations: actor(true),
    execute: (args, context) => services.actions.notifications(context, optionalSessionId(args)),
  };
}
