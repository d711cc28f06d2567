import { z } from 'zod';
import type { HarnessServices } from '../../application/HarnessServices.js';
import { actor, type ToolDefinition } from '../ToolDefinition.js';

export function uiSessionOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_session_open',
    title: 'Start a flow',
    description:
      'Opens a flow for several actions in a row (faster, keeps focus and field state). Returns {session_id, idle_timeout_seconds}: ' +
      'pass session_id to every call until ui_session_close; the flow closes itself after that many idle seconds.',
    inputSchema: z.object({}),
    annotations: actor(false),
    execute: (_args, context) => services.flows.open(context),
  };
}
