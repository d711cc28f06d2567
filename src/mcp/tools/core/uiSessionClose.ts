import { z } from 'zod';
import { parseSessionId } from '../../../domain/validation.js';
import { argument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const uiSessionCloseTool = defineTool({
  name: 'ui_session_close',
  toolset: 'core',
  title: 'End UI session',
  description: 'Ends the session, frees the device: {closed: true}.',
  annotations: actor(false),
  answer: '`{closed: true}`',
  arguments: { session_id: argument(z.string().describe("ui_session_open's id"), parseSessionId) },
  handle: (services, input, context) => services.sessions.close(context, input.session_id),
});
