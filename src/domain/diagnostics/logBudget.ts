/**
 * Bounds what app_logs and app_crashes answer: the newest entries whose JSON fits the
 * share of the answer budget (answerBudget.ts) they are given, each counted in wire bytes as the
 * result carries it (twice: structuredContent and the text block). Pure: no I/O.
 */
import { ANSWER_BUDGET_BYTES, ENVELOPE_RESERVE_BYTES, wireBytesOfJson } from '../summary/answerBudget.js';

/** The entries' share: the answer budget less the envelope and room for the other data keys. */
export const DIAGNOSTICS_BUDGET_BYTES = ANSWER_BUDGET_BYTES - ENVELOPE_RESERVE_BYTES - 1_800;

/** Characters kept of one log message (a line of a few KB would crowd out every other). */
export const LOG_MESSAGE_CHARS_MAX = 1_000;

/**
 * The newest items (the end of `items`) whose JSON costs at most `budget` wire bytes together,
 * in their original order, and how many older ones were left out.
 */
export function newestWithin<T>(
  items: readonly T[],
  budget: number = DIAGNOSTICS_BUDGET_BYTES,
): { kept: T[]; dropped: number } {
  const kept: T[] = [];
  let spent = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    // +2: the comma between array items, in both copies.
    const cost = wireBytesOfJson(JSON.stringify(item)) + 2;
    if (spent + cost > budget) break;
    spent += cost;
    kept.push(item);
  }
  kept.reverse();
  return { kept, dropped: items.length - kept.length };
}

export function cutMessage(message: string): string {
  if (message.length <= LOG_MESSAGE_CHARS_MAX) return message;
  // Never split a surrogate pair.
  let end = LOG_MESSAGE_CHARS_MAX;
  const unit = message.charCodeAt(end - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) end--;
  return `${message.slice(0, end)}…`;
}
