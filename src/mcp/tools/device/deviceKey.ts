import { z } from 'zod';
import { parseDeviceKey } from '../../../domain/toolsetArguments.js';
import { argument, observeArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const deviceKeyTool = defineTool({
  name: 'device_key',
  toolset: 'device',
  title: 'Press a system key',
  description:
    'Presses home, recents (the app switcher), enter or back (as device_back): {key, foreground_package, after} + evidence.',
  annotations: actor(false),
  answer:
    '`{key, foreground_package, after}` (+ `foreground_settled: false` when it had not settled); evidence `device-key`',
  arguments: {
    key: argument(z.enum(['home', 'recents', 'enter', 'back']).describe('recents: the app switcher'), parseDeviceKey),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) => services.actions.key(context, input.key, input.session_id, input.observe),
});
