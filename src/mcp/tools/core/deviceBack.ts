import { observeArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const deviceBackTool = defineTool({
  name: 'device_back',
  toolset: 'core',
  title: 'Back',
  description: 'Presses Back (also closes the keyboard): {back_to_package, after}.',
  annotations: actor(false),
  answer: '`{back_to_package, foreground_package, after}`; evidence `device-back`',
  arguments: { observe: observeArgument, session_id: sessionIdArgument },
  handle: (services, input, context) => services.actions.back(context, input.session_id, input.observe),
});
