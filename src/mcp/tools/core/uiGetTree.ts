import { z } from 'zod';
import { parseActionTarget } from '../../../domain/refs/refTarget.js';
import { parseSinceLast, parseTextMode, treeAsk } from '../../../domain/tree/treeRequest.js';
import { parseRawOffset } from '../../../domain/validation.js';
import { argument, flagAsSentArgument, includeBoundsArgument, optional, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const uiGetTreeTool = defineTool({
  name: 'ui_get_tree',
  toolset: 'core',
  title: 'Read screen',
  description:
    'The screen: foreground_package, texts, actions [{ref, selector keys, label, role}]. ' +
    'Send {ref} or those keys to ui_tap/ui_type_text.',
  annotations: OBSERVER,
  answer:
    "`read` (the read's id) and the screen summary: `foreground_package`, `texts`, `actions` (each a `ref`, its selector keys, `label`, `role`), `scrollables`, `keyboard`, `layout_findings`; only the changes with `since`; `ui_tree` (raw XML, in parts) with `include_raw`",
  arguments: {
    include_raw: flagAsSentArgument('include_raw', 'true: also the raw XML as ui_tree, in parts'),
    raw_offset: argument(
      z
        .number()
        .min(0)
        .optional()
        .describe("The next part of the raw XML: the last answer's raw_truncated.next_offset"),
      optional(parseRawOffset),
    ),
    include_bounds: includeBoundsArgument,
    since: argument(z.literal('last').optional().describe('Only what changed since the last read'), parseSinceLast),
    within: argument(
      z.object({}).optional().describe('One container only: {ref} or a selector'),
      optional(parseActionTarget),
    ),
    mode: argument(z.literal('text').optional().describe('Only the texts, whole (an article, a chat)'), parseTextMode),
    session_id: sessionIdArgument,
  },
  combine: (input) => ({
    ...treeAsk({
      includeRaw: input.include_raw,
      rawOffset: input.raw_offset,
      since: input.since,
      within: input.within,
      mode: input.mode,
    }),
    includeBounds: input.include_bounds,
    ...(input.session_id === undefined ? {} : { sessionId: input.session_id }),
  }),
  handle: (services, request, context) => services.tree.getTree(context, request),
});
