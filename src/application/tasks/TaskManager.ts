/**
 * Queues, runs, cancels and keeps tasks (docs/reference/contract.md, "Tasks").
 *
 * - One task runs per device at a time; the others wait in FIFO order in the device's lane, at
 *   most `maxQueuedPerDevice` of them, then POST is refused (EMULATOR_BUSY). A device is its
 *   identity (two serials of one emulator are one lane), as for the gate and the lock.
 * - A device held by someone else (an MCP client's UI session or call, another process) is not waited
 *   for: the task's first call gets EMULATOR_BUSY and the task fails with it.
 * - Cancel: a queued task leaves its lane at once; a running one is aborted (no further call,
 *   its UI session closed) and DELETE waits up to `cancelWaitMs` for it to have stopped.
 * - Finished tasks are kept `keepForMs` and at most `keepFinished` of them (oldest dropped
 *   first); nothing survives the process: tasks live in memory only.
 */
import { HarnessError } from '../../domain/errors.js';
import type { Clock, Logger, RandomSource } from '../../domain/ports.js';
import type { TaskError, TaskResult, TaskState, TaskView, TaskWork } from './Task.js';

export interface TaskPolicy {
  readonly maxQueuedPerDevice: number;
  readonly keepFinished: number;
  readonly keepForMs: number;
  readonly cancelWaitMs: number;
}

export const DEFAULT_TASK_POLICY: TaskPolicy = Object.freeze({
  maxQueuedPerDevice: 8,
  keepFinished: 100,
  keepForMs: 60 * 60 * 1000,
  cancelWaitMs: 20_000,
});

/** The identity key of the device a task names (one lane per device); throws HarnessError for a name no allowed device has. */
export type DeviceKeyOf = (device: string) => Promise<string>;

interface TaskRecord {
  readonly id: string;
  readonly work: TaskWork;
  readonly lane: string;
  readonly controller: AbortController;
  readonly createdAt: Date;
  state: TaskState;
  step: number;
  of: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Monotonic time it finished, for retention. */
  finishedMono: number | null;
  result: TaskResult | null;
  error: TaskError | null;
  /** Settles when the task is finished (whatever its state). */
  readonly done: Promise<void>;
  readonly markDone: () => void;
}

interface Lane {
  running: TaskRecord | null;
  readonly queue: TaskRecord[];
}

export class TaskManager {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly logger: Logger,
    private readonly deviceKeyOf: DeviceKeyOf,
    private readonly policy: TaskPolicy = DEFAULT_TASK_POLICY,
  ) {}

  /** Queues `work` on its device and starts it when the device's lane is free; answers at once. */
  async submit(work: TaskWork): Promise<TaskView> {
    this.prune();
    const key = await this.deviceKeyOf(work.device);
    const lane = this.lanes.get(key) ?? { running: null, queue: [] };
    if (lane.queue.length >= this.policy.maxQueuedPerDevice) {
      throw new HarnessError(
        'EMULATOR_BUSY',
        `${this.policy.maxQueuedPerDevice} tasks already wait for ${work.device} (one runs at a time per device): retry when one has finished, or cancel one with DELETE /task/{id}.`,
      );
    }
    this.lanes.set(key, lane);
    let markDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (markDone = resolve));
    const record: TaskRecord = {
      id: this.random.uuid(),
      work,
      lane: key,
      controller: new AbortController(),
      createdAt: this.clock.now(),
      state: 'queued',
      step: 0,
      of: work.stepsTotal,
      startedAt: null,
      finishedAt: null,
      finishedMono: null,
      result: null,
      error: null,
      done,
      markDone,
    };
    this.tasks.set(record.id, record);
    lane.queue.push(record);
    this.logger.info('task queued', {
      task_id: record.id,
      kind: work.kind,
      queued_before: lane.queue.length - 1 + (lane.running ? 1 : 0),
    });
    this.startNext(lane);
    return this.viewOf(record);
  }

  /** The task's view, or null when no task has this id (never had, dropped by retention, or the server restarted). */
  view(id: string): TaskView | null {
    this.prune();
    const record = this.tasks.get(id);
    return record ? this.viewOf(record) : null;
  }

  /** Cancels a queued or running task; a finished one is left as it is. Null when unknown. */
  async cancel(id: string, waitMs = this.policy.cancelWaitMs): Promise<TaskView | null> {
    const record = this.tasks.get(id);
    if (!record) return null;
    if (record.state === 'queued') {
      const lane = this.lanes.get(record.lane);
      if (lane) lane.queue.splice(lane.queue.indexOf(record), 1);
      this.finish(record, 'cancelled', null);
    } else if (record.state === 'running') {
      record.controller.abort();
      await this.waitFor(record, waitMs);
    }
    return this.viewOf(record);
  }

  /**
   * Cancels every task and waits at most `waitMs` for the running ones to close their UI sessions
   * (the container's shutdown closes whatever is still open after that, as for any session).
   */
  async shutdown(waitMs: number): Promise<void> {
    const active = [...this.tasks.values()].filter((record) => record.state === 'queued' || record.state === 'running');
    // Queued ones first, so that no running task's end starts one of them.
    for (const record of active) if (record.state === 'queued') await this.cancel(record.id);
    await Promise.all(active.map((record) => this.cancel(record.id, waitMs)));
  }

  private startNext(lane: Lane): void {
    if (lane.running) return;
    const next = lane.queue.shift();
    if (!next) return;
    lane.running = next;
    next.state = 'running';
    next.startedAt = this.clock.now();
    void this.execute(next).finally(() => {
      lane.running = null;
      this.startNext(lane);
    });
  }

  private async execute(record: TaskRecord): Promise<void> {
    const { signal } = record.controller;
    let result: TaskResult;
    try {
      result = await record.work.run({
        signal,
        progress: (step, of) => {
          record.step = step;
          record.of = of;
        },
      });
    } catch (error) {
      this.logger.error('task failed unexpectedly', {
        task_id: record.id,
        cause: error instanceof Error ? error.message : String(error),
      });
      const code = error instanceof HarnessError ? error.code : 'INTERNAL_ERROR';
      const message =
        error instanceof HarnessError
          ? error.message
          : `The task failed unexpectedly; see the server log (task ${record.id}).`;
      result = { passed: false, report: {}, artifactIds: [], error: { code, message } };
    }
    record.result = result;
    this.finish(record, signal.aborted ? 'cancelled' : result.passed ? 'passed' : 'failed', result.error);
  }

  private finish(record: TaskRecord, state: TaskState, error: TaskError | null): void {
    record.state = state;
    record.error = error;
    record.finishedAt = this.clock.now();
    record.finishedMono = this.clock.monotonicMs();
    this.logger.info('task finished', { task_id: record.id, state });
    record.markDone();
  }

  private waitFor(record: TaskRecord, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(resolve, ms);
      void record.done.then(() => {
        this.clock.clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Drops finished tasks past `keepForMs`, then the oldest beyond `keepFinished`. */
  private prune(): void {
    const now = this.clock.monotonicMs();
    const finished = [...this.tasks.values()].filter((record) => record.finishedMono !== null);
    for (const record of finished) {
      if (now - (record.finishedMono ?? now) >= this.policy.keepForMs) this.tasks.delete(record.id);
    }
    const kept = finished
      .filter((record) => this.tasks.has(record.id))
      .sort((a, b) => (a.finishedMono ?? 0) - (b.finishedMono ?? 0));
    for (const record of kept.slice(0, Math.max(0, kept.length - this.policy.keepFinished)))
      this.tasks.delete(record.id);
    for (const [key, lane] of this.lanes) if (!lane.running && lane.queue.length === 0) this.lanes.delete(key);
  }

  private viewOf(record: TaskRecord): TaskView {
    const lane = this.lanes.get(record.lane);
    const position = record.state === 'queued' && lane ? lane.queue.indexOf(record) + 1 : 0;
    return {
      task_id: record.id,
      kind: record.work.kind,
      device: record.work.device,
      state: record.state,
      progress: { step: record.step, of: record.of },
      queue_position: position > 0 ? position : null,
      cancel_requested: record.state === 'running' && record.controller.signal.aborted,
      created_at: record.createdAt.toISOString(),
      started_at: record.startedAt?.toISOString() ?? null,
      finished_at: record.finishedAt?.toISOString() ?? null,
      report: record.result?.report ?? null,
      evidence: (record.result?.artifactIds ?? []).map((id) => ({ artifact_id: id, url: `/artifacts/${id}` })),
      error: record.error,
      trace: record.work.trace ? { name: record.work.trace, url: `/task/${record.id}/trace` } : null,
    };
  }
}
