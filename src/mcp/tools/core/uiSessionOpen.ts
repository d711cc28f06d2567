import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiSessionOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_session_open',
    toolset: 'core',
    title: 'Start a flow',
    description:
      'Starts a flow (faster for several steps; keeps focus): {session_id, idle_timeout_seconds}. Pass session_id to each call, then ui_session_close.',
    inputSchema: z.object({}),
    annotations: actor(false),
    execute: (_args, context) => services.flows.open(context),
  };
}
