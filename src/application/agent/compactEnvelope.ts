/**
 * What the model reads back after a tool call: the tool's envelope as JSON, without what only a
 * client needs (`operation_id`, which only ties a call to the server's log), evidence as its
 * artifact id alone, and bounded. The largest ui_get_tree answer is bounded at 26,000 bytes
 * already (docs/reference/contract.md, "Size of an answer"); the same bound here keeps one step's result from
 * filling the model's context.
 */
import type { Envelope } from '../../domain/envelope.js';

export const MAX_TOOL_RESULT_CHARS = 26_000;
/** Room kept for the envelope around a cut `data`. */
const WRAPPER_RESERVE_CHARS = 1_000;

export function compactEnvelope(envelope: Envelope, maxChars: number = MAX_TOOL_RESULT_CHARS): string {
  const base = {
    ok: envelope.ok,
    tool: envelope.tool,
    error: envelope.error,
    evidence: envelope.evidence ? { artifact_id: envelope.evidence.artifact_id } : null,
  };
  const whole = JSON.stringify({ ...base, data: envelope.data });
  if (whole.length <= maxChars) return whole;
  // Cut inside a JSON string, never the JSON itself: the model still reads valid JSON and is told.
  const data = JSON.stringify(envelope.data);
  const room = Math.max(0, maxChars - WRAPPER_RESERVE_CHARS - JSON.stringify(base).length);
  const cut = {
    ...base,
    data_truncated: {
      total_chars: data.length,
      returned_chars: Math.min(room, data.length),
      data_json_start: data.slice(0, room),
      hint: 'The answer was too long for the model and was cut: ask for less (a narrower read).',
    },
  };
  return JSON.stringify(cut).slice(0, maxChars);
}

/** The answer the harness gives for a call it did not run (unknown tool, arguments that are not an object). */
export function refusalEnvelope(tool: string, code: 'INVALID_ARGUMENT', message: string): Envelope {
  return { ok: false, operation_id: '', tool, data: {}, evidence: null, error: { code, message } };
}
