import { z } from 'zod';
import { parseDeviceName } from '../../../application/devices/DeviceResolver.js';
import { argument, optional } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const uiSessionOpenTool = defineTool({
  name: 'ui_session_open',
  toolset: 'core',
  title: 'Start UI session',
  description:
    'Starts a session (fast for many steps) on device (if several): {session_id, idle_timeout_seconds, device}. Pass session_id to each call, then ui_session_close.',
  annotations: actor(false),
  answer:
    '`{session_id, idle_timeout_seconds, device, avd_name?}`: every call with this `session_id` acts on that device',
  arguments: {
    device: argument(
      z.string().optional().describe('Serial or AVD name from emulator_get_status; needed when several'),
      optional(parseDeviceName),
    ),
  },
  handle: (services, input, context) => services.sessions.open(context, input.device),
});
