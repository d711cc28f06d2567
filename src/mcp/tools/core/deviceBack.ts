import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function deviceBackTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'device_back',
    toolset: 'core',
    title: 'Back',
    description: 'Presses Back (also closes the keyboard): {back_to_package, after}.',
    inputSchema: z.object({ observe: observeSchema, session_id: sessionIdSchema }),
    annotations: actor(false),
    execute: (args, context) => services.actions.back(context, optionalSessionId(args), observeFlag(args)),
  };
}
