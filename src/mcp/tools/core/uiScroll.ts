import { z } from 'zod';
import { SCROLL_DIRECTIONS } from '../../../domain/gestures/scrollDirection.js';
import { parseDirection } from '../../../domain/validation.js';
import { argument, containerArgument, observeArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const uiScrollTool = defineTool({
  name: 'ui_scroll',
  toolset: 'core',
  title: 'Scroll',
  description:
    "Scrolls one page (down: further down) of the selector's container (from scrollables), else of the largest that scrolls that way: {direction, moved, after}; moved false: an end.",
  annotations: actor(false),
  answer:
    '`{direction, target?, moved, foreground_package, after}` (`target` only with a selector); evidence `ui-scroll`',
  arguments: {
    direction: argument(z.enum(SCROLL_DIRECTIONS).describe('down: show what is further down'), parseDirection),
    selector: containerArgument,
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.actions.scroll(context, input.direction, input.selector, input.session_id, input.observe),
});
