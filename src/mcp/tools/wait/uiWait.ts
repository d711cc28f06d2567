import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { WAIT_DEFAULT_S, WAIT_MAX_S, WAIT_MIN_S } from '../../../application/services/WaitService.js';
import { parseBoundedNumber, parseWaitUntil } from '../../../domain/toolsetArguments.js';
import { parseSelector, POSITION_OUTPUT_FLAG } from '../../../domain/validation.js';
import { optionalFlag, optionalSessionId } from '../../arguments.js';
import { selectorSchema, sessionIdSchema } from '../../schemas.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function uiWaitTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_wait',
    toolset: 'wait',
    title: 'Wait for the screen',
    description: `Waits until the selector is visible or gone (timeout_s, default ${WAIT_DEFAULT_S}, max ${WAIT_MAX_S}): {until, waited_ms} + the ui_get_tree summary; OPERATION_TIMEOUT says what was still (not) there.`,
    inputSchema: z.object({
      selector: selectorSchema,
      until: z.enum(['visible', 'gone']),
      timeout_s: z.number().min(WAIT_MIN_S).max(WAIT_MAX_S).optional(),
      session_id: sessionIdSchema,
      [POSITION_OUTPUT_FLAG]: z.boolean().optional(),
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      const selector = parseSelector(args.selector);
      const until = parseWaitUntil(args.until);
      const timeoutS = parseBoundedNumber(args.timeout_s, 'timeout_s', WAIT_MIN_S, WAIT_MAX_S, WAIT_DEFAULT_S);
      const sessionId = optionalSessionId(args);
      const includeBounds = optionalFlag(args, POSITION_OUTPUT_FLAG);
      return services.waits.wait(context, {
        selector,
        until,
        timeoutMs: Math.round(timeoutS * 1000),
        includeBounds,
        ...(sessionId === undefined ? {} : { sessionId }),
      });
    },
  };
}
