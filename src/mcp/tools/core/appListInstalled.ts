import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function appListInstalledTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_list_installed',
    toolset: 'core',
    title: 'Installed apps',
    description: 'Installed packages, sorted: {packages, count}. Next: app_open.',
    inputSchema: z.object({}),
    annotations: OBSERVER,
    execute: (_args, context) => services.apps.listInstalled(context),
  };
}
