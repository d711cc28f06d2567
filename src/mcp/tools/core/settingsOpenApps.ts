import { z } from 'zod';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function settingsOpenAppsTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'settings_open_apps',
    toolset: 'core',
    title: 'Settings → Apps',
    description: 'Opens Settings → Apps, waits: {screen_marker, after}.',
    inputSchema: z.object({ observe: observeSchema, session_id: sessionIdSchema }),
    annotations: actor(true),
    execute: (args, context) => services.settings.openApps(context, optionalSessionId(args), observeFlag(args)),
  };
}
