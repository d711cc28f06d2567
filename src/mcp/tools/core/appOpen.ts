import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parsePackageName } from '../../../domain/validation.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function appOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_open',
    toolset: 'core',
    title: 'Open app',
    description:
      'Launches an app and waits until it shows: {opened_package, foreground_package} + evidence. Next: ui_get_tree.',
    inputSchema: z.object({
      package_name: z.string().describe('e.g. com.android.settings'),
    }),
    annotations: actor(true),
    execute: (args, context) => {
      const pkg = parsePackageName(args.package_name);
      return services.apps.open(context, pkg);
    },
  };
}
