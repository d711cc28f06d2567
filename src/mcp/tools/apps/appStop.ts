import { z } from 'zod';
import { observeArgument, packageArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const appStopTool = defineTool({
  name: 'app_stop',
  toolset: 'apps',
  title: 'Stop app',
  description:
    'Force-stops an installed app (its data stays): {stopped_package, foreground_package, after} + evidence.',
  annotations: actor(true),
  answer: '`{stopped_package, foreground_package, after}`; evidence `app-stop`',
  arguments: {
    package_name: packageArgument(z.string().describe('e.g. com.example.app')),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.appReset.stop(context, input.package_name, input.session_id, input.observe),
});
