import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parsePackageName } from '../../../domain/validation.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function appStopTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_stop',
    toolset: 'apps',
    title: 'Stop app',
    description:
      'Force-stops an installed app (its data stays): {stopped_package, foreground_package, after} + evidence.',
    inputSchema: z.object({
      package_name: z.string().describe('e.g. com.example.app'),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) =>
      services.appReset.stop(context, parsePackageName(args.package_name), optionalSessionId(args), observeFlag(args)),
  };
}
