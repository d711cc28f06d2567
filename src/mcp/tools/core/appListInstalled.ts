import { z } from 'zod';
import { optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function appListInstalledTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_list_installed',
    toolset: 'core',
    title: 'Installed apps',
    description: 'Installed packages, sorted: {packages, count}. Next: app_open.',
    inputSchema: z.object({ session_id: sessionIdSchema }),
    annotations: OBSERVER,
    execute: (args, context) => services.appLaunch.listInstalled(context, optionalSessionId(args)),
  };
}
