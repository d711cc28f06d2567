/**
 * A flow task: a flow file, validated by the flow runner's own schema, run by the
 * flow runner's own code (runFlow) in this process, each call through the tools' own handler
 * (TaskTools: runTool), inside a UI session opened on the task's device. The report is runFlow's.
 */
import type { TaskTools, TaskWork } from '../../application/tasks/Task.js';
import type { FlowFile } from '../../flow/flowFile.js';
import { runFlow } from '../../flow/runFlow.js';

export function flowWork(
  device: string,
  flow: FlowFile,
  tools: TaskTools,
  clock: { now(): Date; monotonicMs(): number },
): TaskWork {
  return {
    kind: 'flow',
    device,
    stepsTotal: flow.steps.length,
    run: async ({ signal, progress }) => {
      const report = await runFlow(
        flow,
        {
          callTool: async (name, args) => {
            const envelope = await tools.call(name, args);
            return { envelope, isError: !envelope.ok };
          },
        },
        {
          source: 'task',
          device,
          signal,
          onStep: progress,
          now: () => clock.now(),
          monotonicMs: () => clock.monotonicMs(),
        },
      );
      return {
        passed: report.passed,
        report: { ...report },
        artifactIds: report.calls.flatMap((call) =>
          call.envelope.evidence ? [call.envelope.evidence.artifact_id] : [],
        ),
        error: report.first_error ? { code: report.first_error.code, message: report.first_error.message } : null,
      };
    },
  };
}
