import { sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const screenCaptureTool = defineTool({
  name: 'screen_capture',
  toolset: 'core',
  title: 'Screenshot',
  description: 'Screenshot (evidence), scaled: {captured, width, height}.',
  annotations: OBSERVER,
  answer: '`{captured: true, width, height}` and the scaled picture as an image block; evidence `screen`',
  arguments: { session_id: sessionIdArgument },
  handle: (services, input, context) => services.capture.capture(context, input.session_id),
});
