/**
 * The task manager on fakes: states and progress, FIFO order per device with a
 * bounded queue, cancel of a queued and of a running task (mid-step: nothing left open), an
 * unknown device refused at submit, bounded retention on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import type { TaskResult, TaskWork, TaskWorkContext } from '../../../../src/application/tasks/Task.js';
import { TaskManager, type TaskPolicy } from '../../../../src/application/tasks/TaskManager.js';
import { HarnessError } from '../../../../src/domain/errors.js';
import { FakeClock } from '../../../support/FakeClock.js';
import { RecordingLogger } from '../../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../../support/fakes/SeededRandom.js';

const POLICY: TaskPolicy = { maxQueuedPerDevice: 2, keepFinished: 3, keepForMs: 60_000, cancelWaitMs: 5_000 };

/** Lets promise chains run (the manager starts the next task from a `finally`). */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A task of `steps` steps, each waiting until the test releases it. It "opens" a resource first
 * and closes it whatever happens, as a flow task opens and closes its flow; it stops between steps
 * once aborted, and a step already running finishes first (as a tool call does).
 */
class SteppedWork implements TaskWork {
  readonly kind = 'flow' as const;
  readonly started: string[] = [];
  open = false;
  stepsDone = 0;
  private releaseStep: (() => void) | null = null;

  constructor(
    readonly device: string,
    readonly stepsTotal: number,
    private readonly log: string[],
    private readonly label: string,
    private readonly fail: boolean = false,
  ) {}

  /** Whether a step is waiting to be released. */
  get waiting(): boolean {
    return this.releaseStep !== null;
  }

  release(): void {
    const release = this.releaseStep;
    this.releaseStep = null;
    release?.();
  }

  async run({ signal, progress }: TaskWorkContext): Promise<TaskResult> {
    this.log.push(`${this.label}:start`);
    this.open = true;
    try {
      for (let step = 1; step <= this.stepsTotal; step += 1) {
        if (signal.aborted) break;
        await new Promise<void>((resolve) => (this.releaseStep = resolve));
        this.stepsDone = step;
        progress(step, this.stepsTotal);
        if (this.fail) {
          return {
            passed: false,
            report: { failed_step: step },
            artifactIds: [`a-${this.label}-${step}.png`],
            error: { code: 'UI_ELEMENT_NOT_FOUND', message: 'not there' },
          };
        }
      }
    } finally {
      this.open = false;
      this.log.push(`${this.label}:end`);
    }
    const passed = this.stepsDone === this.stepsTotal;
    return { passed, report: { steps_run: this.stepsDone }, artifactIds: [`a-${this.label}.png`], error: null };
  }
}

function manager(
  clock = new FakeClock(),
  keys: Record<string, string> = { 'emulator-5554': 'avd:Pixel', Pixel: 'avd:Pixel', 'emulator-5556': 'serial:B' },
) {
  const deviceKeyOf = (name: string): Promise<string> => {
    const key = keys[name];
    if (key === undefined)
      return Promise.reject(new HarnessError('EMULATOR_UNAVAILABLE', `No allowed online device is named '${name}'.`));
    return Promise.resolve(key);
  };
  return new TaskManager(clock, new SeededRandom(3), new RecordingLogger(), deviceKeyOf, POLICY);
}

describe('TaskManager', () => {
  it('runs a task through queued → running → passed, with progress and evidence links', async () => {
    const tasks = manager();
    const log: string[] = [];
    const work = new SteppedWork('emulator-5554', 2, log, 'a');
    const queued = await tasks.submit(work);
    // The lane was free: it starts at once, in the background.
    expect(queued.task_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(tasks.view(queued.task_id)).toMatchObject({
      state: 'running',
      progress: { step: 0, of: 2 },
      report: null,
      finished_at: null,
    });
    await flush();
    work.release();
    await flush();
    expect(tasks.view(queued.task_id)?.progress).toEqual({ step: 1, of: 2 });
    work.release();
    await flush();
    const done = tasks.view(queued.task_id);
    expect(done).toMatchObject({
      state: 'passed',
      progress: { step: 2, of: 2 },
      report: { steps_run: 2 },
      error: null,
      queue_position: null,
    });
    expect(done?.evidence).toEqual([{ artifact_id: 'a-a.png', url: '/artifacts/a-a.png' }]);
    expect(done?.finished_at).not.toBeNull();
  });

  it('a failing task is failed with the error that ended it', async () => {
    const tasks = manager();
    const work = new SteppedWork('emulator-5554', 3, [], 'f', true);
    const { task_id } = await tasks.submit(work);
    await flush();
    work.release();
    await flush();
    expect(tasks.view(task_id)).toMatchObject({
      state: 'failed',
      progress: { step: 1, of: 3 },
      report: { failed_step: 1 },
      error: { code: 'UI_ELEMENT_NOT_FOUND' },
    });
  });

  it('one task per device at a time, the others in FIFO order; another device runs meanwhile', async () => {
    const tasks = manager();
    const log: string[] = [];
    const first = new SteppedWork('emulator-5554', 1, log, 'first');
    // The same device by its AVD name: one lane.
    const second = new SteppedWork('Pixel', 1, log, 'second');
    const third = new SteppedWork('emulator-5554', 1, log, 'third');
    const other = new SteppedWork('emulator-5556', 1, log, 'other');
    const ids = [];
    for (const work of [first, second, third, other]) ids.push((await tasks.submit(work)).task_id);
    await flush();
    expect(ids.map((id) => tasks.view(id)?.state)).toEqual(['running', 'queued', 'queued', 'running']);
    expect(ids.map((id) => tasks.view(id)?.queue_position)).toEqual([null, 1, 2, null]);
    expect(log).toEqual(['first:start', 'other:start']);
    first.release();
    await flush();
    expect(log).toEqual(['first:start', 'other:start', 'first:end', 'second:start']);
    expect(tasks.view(ids[2]!)?.queue_position).toBe(1);
    second.release();
    await flush();
    third.release();
    other.release();
    await flush();
    expect(log.filter((line) => line.endsWith(':start'))).toEqual([
      'first:start',
      'other:start',
      'second:start',
      'third:start',
    ]);
    // Four finished and keepFinished is 3: the one that finished first is dropped.
    expect(ids.map((id) => tasks.view(id)?.state ?? 'dropped')).toEqual(['dropped', 'passed', 'passed', 'passed']);
  });

  it('a full queue refuses the next task with EMULATOR_BUSY; an unknown device is refused at submit', async () => {
    const tasks = manager();
    await tasks.submit(new SteppedWork('emulator-5554', 1, [], 'running'));
    await tasks.submit(new SteppedWork('emulator-5554', 1, [], 'q1'));
    await tasks.submit(new SteppedWork('emulator-5554', 1, [], 'q2'));
    await expect(tasks.submit(new SteppedWork('Pixel', 1, [], 'q3'))).rejects.toMatchObject({
      code: 'EMULATOR_BUSY',
      message: expect.stringContaining('2 tasks already wait for Pixel'),
    });
    // Another device is not affected.
    await expect(tasks.submit(new SteppedWork('emulator-5556', 1, [], 'b'))).resolves.toMatchObject({
      state: 'running',
    });
    await expect(tasks.submit(new SteppedWork('emulator-9999', 1, [], 'x'))).rejects.toMatchObject({
      code: 'EMULATOR_UNAVAILABLE',
    });
  });

  it('cancel of a queued task: it leaves the queue at once and never starts', async () => {
    const tasks = manager();
    const log: string[] = [];
    const running = new SteppedWork('emulator-5554', 1, log, 'running');
    const waiting = new SteppedWork('emulator-5554', 1, log, 'waiting');
    await tasks.submit(running);
    const { task_id } = await tasks.submit(waiting);
    expect(await tasks.cancel(task_id)).toMatchObject({ state: 'cancelled', queue_position: null });
    running.release();
    await flush();
    expect(log).toEqual(['running:start', 'running:end']);
    expect(tasks.view(task_id)?.state).toBe('cancelled');
  });

  it('cancel mid-step: the step in flight ends, no further step runs, what it opened is closed before DELETE answers', async () => {
    const clock = new FakeClock();
    const tasks = manager(clock);
    const log: string[] = [];
    const work = new SteppedWork('emulator-5554', 3, log, 'c');
    const next = new SteppedWork('emulator-5554', 1, log, 'next');
    const { task_id } = await tasks.submit(work);
    const nextId = (await tasks.submit(next)).task_id;
    await flush();
    work.release();
    await flush();
    expect(work.waiting).toBe(true);
    const cancelling = tasks.cancel(task_id);
    await flush();
    // Step 2 is still in flight: the task has not stopped, so DELETE has not answered.
    expect(tasks.view(task_id)).toMatchObject({ state: 'running', cancel_requested: true });
    expect(work.open).toBe(true);
    work.release();
    const view = await cancelling;
    expect(view).toMatchObject({ state: 'cancelled', cancel_requested: false, progress: { step: 2, of: 3 } });
    expect(work.open).toBe(false);
    expect(work.stepsDone).toBe(2);
    // The device's next task starts only once the cancelled one has closed what it had opened.
    expect(log.slice(0, 2)).toEqual(['c:start', 'c:end']);
    await flush();
    expect(tasks.view(nextId)?.state).toBe('running');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('cancel of a task that will not stop answers after cancelWaitMs with cancel_requested; a finished task stays as it was', async () => {
    const clock = new FakeClock();
    const tasks = manager(clock);
    const work = new SteppedWork('emulator-5554', 1, [], 'slow');
    const { task_id } = await tasks.submit(work);
    await flush();
    let answered = false;
    const cancelling = tasks.cancel(task_id).then((view) => {
      answered = true;
      return view;
    });
    await clock.advance(POLICY.cancelWaitMs - 1);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect(await cancelling).toMatchObject({ state: 'running', cancel_requested: true });
    work.release();
    await flush();
    expect(tasks.view(task_id)?.state).toBe('cancelled');
    expect(await tasks.cancel(task_id)).toMatchObject({ state: 'cancelled' });
    const passed = new SteppedWork('emulator-5556', 1, [], 'p');
    const passedId = (await tasks.submit(passed)).task_id;
    await flush();
    passed.release();
    await flush();
    expect(await tasks.cancel(passedId)).toMatchObject({ state: 'passed' });
    expect(await tasks.cancel('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('a work that throws is failed, never a crash; its message is kept only when it is a harness error', async () => {
    const tasks = manager();
    const thrower = (error: unknown): TaskWork => ({
      kind: 'goal',
      device: 'emulator-5554',
      stepsTotal: 5,
      run: () => Promise.reject(error),
    });
    const typed = (await tasks.submit(thrower(new HarnessError('APPIUM_UNAVAILABLE', 'Appium does not answer.'))))
      .task_id;
    await flush();
    const raw = (await tasks.submit(thrower(new Error('/home/me/secret path')))).task_id;
    await flush();
    expect(tasks.view(typed)).toMatchObject({
      state: 'failed',
      error: { code: 'APPIUM_UNAVAILABLE', message: 'Appium does not answer.' },
    });
    expect(tasks.view(raw)?.error?.code).toBe('INTERNAL_ERROR');
    expect(tasks.view(raw)?.error?.message).not.toContain('/home');
  });

  it('keeps finished tasks for keepForMs and at most keepFinished of them; running ones are never dropped', async () => {
    const clock = new FakeClock();
    const tasks = manager(clock);
    const long = new SteppedWork('emulator-5556', 1, [], 'long');
    const longId = (await tasks.submit(long)).task_id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const work = new SteppedWork('emulator-5554', 1, [], `t${i}`);
      ids.push((await tasks.submit(work)).task_id);
      await flush();
      work.release();
      await flush();
      await clock.advance(1_000);
    }
    // Five finished, three kept: the two oldest are gone.
    expect(ids.map((id) => tasks.view(id)?.state ?? 'gone')).toEqual(['gone', 'gone', 'passed', 'passed', 'passed']);
    await clock.advance(POLICY.keepForMs - 3_000);
    expect(tasks.view(ids[2]!)).toBeNull();
    expect(tasks.view(ids[4]!)?.state).toBe('passed');
    // t4 finished at 4 s: kept until 64 s.
    await clock.advance(1_999);
    expect(tasks.view(ids[4]!)?.state).toBe('passed');
    await clock.advance(1);
    expect(ids.map((id) => tasks.view(id))).toEqual([null, null, null, null, null]);
    expect(tasks.view(longId)?.state).toBe('running');
  });

  it('shutdown cancels queued and running tasks and waits, bounded, for them to stop', async () => {
    const clock = new FakeClock();
    const tasks = manager(clock);
    const log: string[] = [];
    const running = new SteppedWork('emulator-5554', 2, log, 'r');
    const queued = new SteppedWork('emulator-5554', 1, log, 'q');
    const ids = [(await tasks.submit(running)).task_id, (await tasks.submit(queued)).task_id];
    await flush();
    const stopping = tasks.shutdown(1_000);
    await flush();
    running.release();
    await stopping;
    expect(ids.map((id) => tasks.view(id)?.state)).toEqual(['cancelled', 'cancelled']);
    expect(log).toEqual(['r:start', 'r:end']);
    expect(running.open).toBe(false);
  });
});
