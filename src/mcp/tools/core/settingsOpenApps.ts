import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function settingsOpenAppsTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'settings_open_apps',
    toolset: 'core',
    title: 'Settings → Apps',
    description:
      'Opens Settings → Apps and waits for it: {screen_marker} + evidence. Next: ui_get_tree.',
    inputSchema: z.object({}),
    annotations: actor(true),
    execute: (_args, context) => services.settings.openApps(context),
  };
}
