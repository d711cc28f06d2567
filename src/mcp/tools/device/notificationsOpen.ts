import { sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const notificationsOpenTool = defineTool({
  name: 'notifications_open',
  toolset: 'device',
  title: 'Open the notification shade',
  description:
    'Pulls the notification shade down: the screen as ui_get_tree gives it + evidence. Tap a notification by its ref; device_back closes the shade.',
  annotations: actor(true),
  answer:
    'the screen summary as `ui_get_tree` gives it (refs included, no bounds) and `foreground_package`; evidence `notifications-open`',
  arguments: { session_id: sessionIdArgument },
  handle: (services, input, context) => services.actions.notifications(context, input.session_id),
});
