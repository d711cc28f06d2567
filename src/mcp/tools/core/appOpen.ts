import { z } from 'zod';
import { observeArgument, packageArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const appOpenTool = defineTool({
  name: 'app_open',
  toolset: 'core',
  title: 'Open app',
  description: 'Launches an app, waits until it shows: {opened_package, after}.',
  annotations: actor(true),
  answer: '`{opened_package, foreground_package, after}`; evidence `app-open`',
  arguments: {
    package_name: packageArgument(z.string().describe('e.g. com.android.settings')),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.appLaunch.open(context, input.package_name, input.session_id, input.observe),
});
