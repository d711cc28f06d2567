/** What the model is told before the goal: how the loop works and what ends it. */
import type { GoalLimits } from '../tasks/GoalRunner.js';
import { FINISH_TOOL_NAME } from './finishTool.js';

export function systemPrompt(limits: GoalLimits): string {
  const seconds = Math.round(limits.maxDurationMs / 1000);
  return [
    'You operate one Android device through the tools given, to reach the goal the user states.',
    'Read the screen before you act and again after, to see what your action did. Name elements the way the tools say (selectors or refs from the screen); the tools never take coordinates.',
    'Call one tool at a time when the next step depends on the last one.',
    `When the screen shows the goal is reached, or you are sure it cannot be, call ${FINISH_TOOL_NAME} alone with met and a short summary.`,
    `You have at most ${limits.maxSteps} tool calls and ${seconds} seconds; the task fails when they run out.`,
    'Never repeat in your text what you type into a field.',
  ].join('\n');
}
