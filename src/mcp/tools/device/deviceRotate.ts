import { z } from 'zod';
import { parseOrientation } from '../../../domain/toolsetArguments.js';
import { argument, observeArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const deviceRotateTool = defineTool({
  name: 'device_rotate',
  toolset: 'device',
  title: 'Rotate the screen',
  description: 'Turns the screen to portrait or landscape: {orientation, foreground_package, after} + evidence.',
  annotations: actor(true),
  answer: '`{orientation, foreground_package, after}`; evidence `device-rotate`',
  arguments: {
    orientation: argument(z.enum(['portrait', 'landscape']).describe('The screen turned to this'), parseOrientation),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.actions.rotate(context, input.orientation, input.session_id, input.observe),
});
