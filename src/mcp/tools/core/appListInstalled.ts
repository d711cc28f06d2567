import { sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const appListInstalledTool = defineTool({
  name: 'app_list_installed',
  toolset: 'core',
  title: 'Installed apps',
  description: 'Installed packages, sorted: {packages, count}. Next: app_open.',
  annotations: OBSERVER,
  answer: '`{packages, count}` (sorted, unique)',
  arguments: { session_id: sessionIdArgument },
  handle: (services, input, context) => services.appLaunch.listInstalled(context, input.session_id),
});
