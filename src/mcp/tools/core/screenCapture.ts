import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function screenCaptureTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'screen_capture',
    toolset: 'core',
    title: 'Screenshot',
    description:
      'Screenshot, kept as evidence, returned scaled: {captured, width, height}. Pick targets with ui_get_tree.',
    inputSchema: z.object({}),
    annotations: OBSERVER,
    execute: (_args, context) => services.capture.capture(context),
  };
}
