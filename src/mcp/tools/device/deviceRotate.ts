import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseOrientation } from '../../../domain/toolsetArguments.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function deviceRotateTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'device_rotate',
    toolset: 'device',
    title: 'Rotate the screen',
    description: 'Turns the screen to portrait or landscape: {orientation, foreground_package, after} + evidence.',
    inputSchema: z.object({
      orientation: z.enum(['portrait', 'landscape']),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) =>
      services.actions.rotate(context, parseOrientation(args.orientation), optionalSessionId(args), observeFlag(args)),
  };
}
