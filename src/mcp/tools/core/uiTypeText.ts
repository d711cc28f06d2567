import { z } from 'zod';
import { parseText } from '../../../domain/validation.js';
import { argument, observeArgument, sessionIdArgument, targetArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const uiTypeTextTool = defineTool({
  name: 'ui_type_text',
  toolset: 'core',
  title: 'Type text',
  description:
    'Replaces the text of the field a selector names (an input action or {input_hint: "Search"}), tapping it first if unfocused: ' +
    '{target, characters_sent, after}. Submit with ui_tap.',
  annotations: actor(true),
  answer: '`{target, characters_sent, foreground_package, after}`; evidence `ui-type`',
  arguments: {
    selector: targetArgument,
    text: argument(z.string().describe('1 to 512 characters, one line'), parseText),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.actions.typeText(context, input.selector, input.text, input.session_id, input.observe),
});
