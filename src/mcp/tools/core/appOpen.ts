import { z } from 'zod';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parsePackageName } from '../../../domain/validation.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function appOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_open',
    toolset: 'core',
    title: 'Open app',
    description: 'Launches an app, waits until it shows: {opened_package, after}.',
    inputSchema: z.object({
      package_name: z.string().describe('e.g. com.android.settings'),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) => {
      const pkg = parsePackageName(args.package_name);
      return services.appLaunch.open(context, pkg, optionalSessionId(args), observeFlag(args));
    },
  };
}
