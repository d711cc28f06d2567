import { HarnessError } from '../../domain/errors.js';
import type { Clock, DeviceLock } from '../../domain/ports.js';

/** Who holds the device right now, for the EMULATOR_BUSY message. */
interface Holder {
  readonly tool: string;
  readonly operationId: string;
  readonly sinceMs: number;
}

/**
 * One owner of the device at a time, for every tool, observers included (a second call gets
 * EMULATOR_BUSY at once). There is deliberately no queue: a model that waits silently behind
 * another agent is worse off than one told at once that the device is busy.
 */
export class DeviceGate {
  private holder: Holder | null = null;

  /**
   * `crossProcess`: the device lock shared with every other harness process on the machine (another
   * MCP client's server cannot see this gate), taken after this process's own gate and given back
   * with it.
   */
  constructor(
    private readonly clock: Clock,
    private readonly crossProcess?: DeviceLock,
  ) {}

  get isHeld(): boolean {
    return this.holder !== null;
  }

  /**
   * Takes the device synchronously or throws EMULATOR_BUSY; the returned function
   * releases it (idempotent, so a late `finally` cannot free someone else's hold).
   */
  acquire(tool: string, operationId: string): () => void {
    const current = this.holder;
    if (current) {
      const seconds = Math.max(0, Math.round((this.clock.monotonicMs() - current.sinceMs) / 1000));
      throw new HarnessError(
        'EMULATOR_BUSY',
        `The device is busy with ${current.tool} (operation ${current.operationId}, running for ${seconds} s). ` +
          'There is no queue: retry when that call has answered.',
      );
    }
    // Throws EMULATOR_BUSY naming the other process when one holds the device.
    const releaseCrossProcess = this.crossProcess?.hold({ tool, operationId, kind: 'operation' });
    const mine: Holder = { tool, operationId, sinceMs: this.clock.monotonicMs() };
    this.holder = mine;
    return () => {
      if (this.holder === mine) this.holder = null;
      releaseCrossProcess?.();
    };
  }

  /** Runs `body` while holding the device; released however `body` ends. */
  async run<T>(tool: string, operationId: string, body: () => Promise<T>): Promise<T> {
    const release = this.acquire(tool, operationId);
    try {
      return await body();
    } finally {
      release();
    }
  }
}
