import { z } from 'zod';
import { parseDeviceName } from '../../../application/devices/DeviceResolver.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function uiSessionOpenTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_session_open',
    toolset: 'core',
    title: 'Start UI session',
    description:
      'Starts a session (fast for many steps) on device (if several): {session_id, idle_timeout_seconds, device}. Pass session_id to each call, then ui_session_close.',
    inputSchema: z.object({ device: z.string().optional() }),
    annotations: actor(false),
    execute: (args, context) =>
      services.sessions.open(
        context,
        args.device === undefined || args.device === null ? undefined : parseDeviceName(args.device),
      ),
  };
}
