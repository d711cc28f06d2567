import { z } from 'zod';
import { HarnessError } from '../../../domain/errors.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { POSITION_OUTPUT_FLAG } from '../../../domain/validation.js';
import { optionalFlag, optionalRawOffset, optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function uiGetTreeTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_get_tree',
    toolset: 'core',
    title: 'Read screen',
    description:
      'The screen: foreground_package, texts, actions [{ref, selector keys, label (else the selector\'s value), role (else button)}]. ' +
      'Send {ref} or those keys to ui_tap or ui_type_text.',
    inputSchema: z.object({
      include_raw: z.boolean().optional().describe('Adds the raw XML as ui_tree, in parts'),
      raw_offset: z.number().min(0).optional().describe('Next part: raw_truncated.next_offset'),
      [POSITION_OUTPUT_FLAG]: z.boolean().optional(),
      session_id: sessionIdSchema,
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      // true or false only: "yes" used to be read silently as false (issue 11).
      const rawOffset = optionalRawOffset(args);
      // raw_offset asks for a part of the raw XML, so it implies include_raw; include_raw: false with it is a contradiction.
      const includeRaw = rawOffset === undefined ? optionalFlag(args, 'include_raw') : rawWith(args);
      const sessionId = optionalSessionId(args);
      return services.tree.getTree(context, {
        includeRaw,
        includeBounds: optionalFlag(args, POSITION_OUTPUT_FLAG),
        ...(rawOffset === undefined ? {} : { rawOffset }),
        ...(sessionId === undefined ? {} : { sessionId }),
      });
    },
  };
}

function rawWith(args: Readonly<Record<string, unknown>>): true {
  if (args.include_raw === false) {
    throw new HarnessError('INVALID_ARGUMENT', 'Invalid raw_offset with include_raw: false: raw_offset pages the raw XML. Send include_raw: true, or leave raw_offset out.');
  }
  optionalFlag(args, 'include_raw');
  return true;
}
