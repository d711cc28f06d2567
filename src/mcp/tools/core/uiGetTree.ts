import { z } from 'zod';
import { HarnessError } from '../../../domain/errors.js';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { POSITION_OUTPUT_FLAG } from '../../../domain/validation.js';
import { parseActionTarget, type ActionTarget } from '../../../domain/refs/refTarget.js';
import { optionalFlag, optionalRawOffset, optionalSessionId } from '../../arguments.js';
import { sessionIdSchema } from '../../schemas.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function uiGetTreeTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'ui_get_tree',
    toolset: 'core',
    title: 'Read screen',
    description:
      'The screen: foreground_package, texts, actions [{ref, selector keys, label, role}]. ' +
      'Send {ref} or those keys to ui_tap/ui_type_text.',
    inputSchema: z.object({
      include_raw: z.boolean().optional().describe('Raw XML as ui_tree, in parts'),
      raw_offset: z.number().min(0).optional().describe('raw_truncated.next_offset'),
      [POSITION_OUTPUT_FLAG]: z.boolean().optional(),
      since: z.literal('last').optional(),
      within: z.object({}).optional(),
      mode: z.literal('text').optional(),
      session_id: sessionIdSchema,
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      // true or false only: "yes" read as false would silently drop what the model asked for.
      const rawOffset = optionalRawOffset(args);
      // raw_offset asks for a part of the raw XML, so it implies include_raw; include_raw: false with it is a contradiction.
      const includeRaw = rawOffset === undefined ? optionalFlag(args, 'include_raw') : rawWith(args);
      const sessionId = optionalSessionId(args);
      const part = partOf(args, includeRaw);
      return services.tree.getTree(context, {
        includeRaw,
        includeBounds: optionalFlag(args, POSITION_OUTPUT_FLAG),
        ...part,
        ...(rawOffset === undefined ? {} : { rawOffset }),
        ...(sessionId === undefined ? {} : { sessionId }),
      });
    },
  };
}

function rawWith(args: Readonly<Record<string, unknown>>): true {
  if (args.include_raw === false) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'Invalid raw_offset with include_raw: false: raw_offset pages the raw XML. Send include_raw: true, or leave raw_offset out.',
    );
  }
  optionalFlag(args, 'include_raw');
  return true;
}

/** `since`, `within` and `mode`, checked together: a part of the screen is never a diff's base nor sent with the raw XML. */
function partOf(
  args: Readonly<Record<string, unknown>>,
  includeRaw: boolean,
): { sinceLast?: true; within?: ActionTarget; textOnly?: true } {
  const given = (name: string): boolean => args[name] !== undefined && args[name] !== null;
  if (given('since') && args.since !== 'last')
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'Invalid since: the only value is "last" (a diff against the last screen read). Leave it out for the whole screen.',
    );
  if (given('mode') && args.mode !== 'text')
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'Invalid mode: the only value is "text" (the screen\'s texts only). Leave it out for the whole summary.',
    );
  const within = given('within') ? parseActionTarget(args.within) : undefined;
  const textOnly = given('mode');
  if (given('since') && (within !== undefined || textOnly)) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'Invalid since with within or mode: a diff is of the whole screen. Send since alone, or within/mode without it.',
    );
  }
  if (includeRaw && (within !== undefined || textOnly)) {
    throw new HarnessError(
      'INVALID_ARGUMENT',
      "Invalid include_raw with within or mode: the raw XML is the whole screen's. Send one or the other.",
    );
  }
  return {
    ...(given('since') ? { sinceLast: true as const } : {}),
    ...(within ? { within } : {}),
    ...(textOnly ? { textOnly: true as const } : {}),
  };
}
