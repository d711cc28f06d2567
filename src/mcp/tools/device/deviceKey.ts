import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseDeviceKey } from '../../../domain/toolsetArguments.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function deviceKeyTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'device_key',
    toolset: 'device',
    title: 'Press a system key',
    description:
      'Presses home, recents (the app switcher), enter or back (as device_back): {key, foreground_package, after} + evidence.',
    inputSchema: z.object({
      key: z.enum(['home', 'recents', 'enter', 'back']),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(false),
    execute: (args, context) => {
      const key = parseDeviceKey(args.key);
      return services.actions.key(context, key, optionalSessionId(args), observeFlag(args));
    },
  };
}
