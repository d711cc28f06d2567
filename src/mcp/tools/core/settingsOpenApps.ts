import { observeArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const settingsOpenAppsTool = defineTool({
  name: 'settings_open_apps',
  toolset: 'core',
  title: 'Settings → Apps',
  description: 'Opens Settings → Apps, waits: {screen_marker, after}.',
  annotations: actor(true),
  answer: '`{screen_marker, after}`; evidence `settings-apps`',
  arguments: { observe: observeArgument, session_id: sessionIdArgument },
  handle: (services, input, context) => services.settings.openApps(context, input.session_id, input.observe),
});
