import { z } from 'zod';
import type { HarnessServices } from '../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../ToolDefinition.js';

export function screenCaptureTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'screen_capture',
    title: 'Screenshot',
    description:
      'Takes a screenshot: saves it as evidence (full resolution) and returns a scaled image plus {captured, width, height}. ' +
      'Prefer ui_get_tree to decide what to tap; use this to look at visuals.',
    inputSchema: z.object({}),
    annotations: OBSERVER,
    execute: (_args, context) => services.capture.capture(context),
  };
}
