/**
 * The tool the loop adds to the harness's own: how the model ends a goal and says whether it is met.
 * It takes no coordinates and touches no device; the loop answers it itself.
 */
import { z } from 'zod';
import type { ModelToolSpec } from './ModelPort.js';

export const FINISH_TOOL_NAME = 'finish';
export const MAX_SUMMARY_CHARS = 1_000;

export const FINISH_TOOL: ModelToolSpec = Object.freeze({
  name: FINISH_TOOL_NAME,
  description:
    'Ends the task. Call it alone, in a turn of its own, once you have seen the result of your last action: ' +
    'met true when the screen shows the goal is reached, false when it cannot be reached; summary says what you saw.',
  inputSchema: Object.freeze({
    type: 'object',
    properties: {
      met: { type: 'boolean', description: 'Whether the goal is met' },
      summary: { type: 'string', description: `What you did and saw, at most ${MAX_SUMMARY_CHARS} characters` },
    },
    required: ['met', 'summary'],
    additionalProperties: false,
  }),
});

const finishArgs = z.object({ met: z.boolean(), summary: z.string().trim().min(1) });

export type FinishArgs = z.infer<typeof finishArgs>;

/** The arguments, or what is wrong with them (said to the model, which then tries again). */
export function parseFinish(input: Readonly<Record<string, unknown>> | null): FinishArgs | string {
  const parsed = finishArgs.safeParse(input);
  if (parsed.success) return parsed.data;
  return 'finish takes {"met": true|false, "summary": "<what you did and saw>"}; call it again with both.';
}
