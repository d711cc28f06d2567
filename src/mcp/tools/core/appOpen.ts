import { z } from 'zod';
import { sessionIdSchema } from '../../schemas.js';
import { optionalSessionId } from '../../arguments.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parsePackageName } from '../../../domain/validation.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function appOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_open',
    toolset: 'core',
    title: 'Open app',
    description:
      'Launches an app, waits until it shows: {opened_package, foreground_package} + evidence.',
    inputSchema: z.object({
      package_name: z.string().describe('e.g. com.android.settings'),
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) => {
      const pkg = parsePackageName(args.package_name);
      return services.apps.open(context, pkg, optionalSessionId(args));
    },
  };
}
