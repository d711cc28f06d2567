import { z } from 'zod';
import { WAIT_DEFAULT_S, WAIT_MAX_S, WAIT_MIN_S } from '../../../application/services/WaitService.js';
import { parseBoundedNumber, parseWaitUntil } from '../../../domain/toolsetArguments.js';
import { argument, includeBoundsArgument, selectorArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const uiWaitTool = defineTool({
  name: 'ui_wait',
  toolset: 'wait',
  title: 'Wait for the screen',
  description: `Waits until the selector is visible or gone (timeout_s, default ${WAIT_DEFAULT_S}, max ${WAIT_MAX_S}): {until, waited_ms} + the ui_get_tree summary; a text the tree lacks is also read where ui_get_tree offers visual entries. OPERATION_TIMEOUT says what was still (not) there.`,
  annotations: OBSERVER,
  answer:
    '`{until, waited_ms}` and the `ui_get_tree` summary at that moment (its `read` id and refs; bounds only with `include_bounds`)',
  arguments: {
    selector: selectorArgument,
    until: argument(z.enum(['visible', 'gone']).describe('Return once it shows, or once it left'), parseWaitUntil),
    timeout_s: argument(
      z.number().min(WAIT_MIN_S).max(WAIT_MAX_S).optional().describe(`Seconds, default ${WAIT_DEFAULT_S}`),
      (raw) => parseBoundedNumber(raw, 'timeout_s', WAIT_MIN_S, WAIT_MAX_S, WAIT_DEFAULT_S),
    ),
    session_id: sessionIdArgument,
    include_bounds: includeBoundsArgument,
  },
  handle: (services, input, context) =>
    services.waits.wait(context, {
      selector: input.selector,
      until: input.until,
      timeoutMs: Math.round(input.timeout_s * 1000),
      includeBounds: input.include_bounds,
      ...(input.session_id === undefined ? {} : { sessionId: input.session_id }),
    }),
});
