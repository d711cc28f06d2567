import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parsePackageName } from '../../../domain/validation.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import type { ToolAnnotations, ToolDefinition } from '../../ToolDefinition.js';

/** The one destructive tool: the app's data is gone for good. */
const DESTRUCTIVE: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
});

export function appClearDataTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_clear_data',
    toolset: 'apps',
    title: 'Clear app data',
    description:
      'DESTRUCTIVE: erases all data of an installed app (accounts, files, settings; cannot be undone) and stops it: {cleared_package, foreground_package, after} + evidence.',
    inputSchema: z.object({
      package_name: z.string().describe('e.g. com.example.app'),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: DESTRUCTIVE,
    execute: (args, context) =>
      services.appReset.clearData(
        context,
        parsePackageName(args.package_name),
        optionalSessionId(args),
        observeFlag(args),
      ),
  };
}
