import { z } from 'zod';
import { optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function screenCaptureTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'screen_capture',
    toolset: 'core',
    title: 'Screenshot',
    description: 'Screenshot (evidence), scaled: {captured, width, height}.',
    inputSchema: z.object({ session_id: sessionIdSchema }),
    annotations: OBSERVER,
    execute: (args, context) => services.capture.capture(context, optionalSessionId(args)),
  };
}
