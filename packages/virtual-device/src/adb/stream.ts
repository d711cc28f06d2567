/**
 * One device-side ADB stream (a service the host opened), with adb 29's only
 * flow control: after a WRTE the device sends nothing more on that stream until
 * the host answers OKAY. Writes are queued and cut to the host's maximum payload.
 */

/** What a service sees of its stream. */
export interface ServiceStream {
  /**
   * Queues bytes for the host. Returns false once more than a high-water mark is
   * waiting for acknowledgement, so a producer that can pause (a TCP bridge) should
   * wait for drained() before writing more. Writes after close are dropped.
   */
  write(data: Buffer | string): boolean;
  /** Resolves once every queued byte has been acknowledged by the host (or the stream closed). */
  drained(): Promise<void>;
  /** Sends what is queued, then CLSE. Idempotent. */
  end(): void;
  /**
   * Receives the host's WRTE payloads in order. The host gets its OKAY (and may send
   * the next chunk) only after the listener's promise settles: that is backpressure
   * towards the client. Chunks that arrive before a listener is set are kept.
   */
  onData(listener: (chunk: Buffer) => void | Promise<void>): void;
  /** Fires when the host closed the stream (the client went away) or the connection dropped. */
  readonly aborted: AbortSignal;
  /** True once the stream is closed in either direction. */
  readonly closed: boolean;
}

/** How the stream reaches the wire; implemented by the connection. */
export interface StreamWire {
  sendWrite(localId: number, remoteId: number, payload: Buffer): void;
  sendOkay(localId: number, remoteId: number): void;
  sendClose(localId: number, remoteId: number): void;
  /** Largest WRTE payload the host accepts. */
  readonly maxPayload: number;
  /** Called once the stream is closed so the connection forgets it. */
  forget(localId: number): void;
}

const HIGH_WATER_BYTES = 1024 * 1024;

export class DeviceStream implements ServiceStream {
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private awaitingAck = false;
  private endRequested = false;
  private isClosed = false;
  private readonly abortController = new AbortController();
  private drainWaiters: Array<() => void> = [];
  private dataListener: ((chunk: Buffer) => void | Promise<void>) | null = null;
  private readonly inbox: Buffer[] = [];
  private delivering = false;

  constructor(
    readonly localId: number,
    readonly remoteId: number,
    private readonly wire: StreamWire,
  ) {}

  get aborted(): AbortSignal {
    return this.abortController.signal;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  write(data: Buffer | string): boolean {
    if (this.isClosed || this.endRequested) return false;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.length === 0) return true;
    for (let offset = 0; offset < bytes.length; offset += this.wire.maxPayload) {
      const piece = bytes.subarray(offset, offset + this.wire.maxPayload);
      this.queue.push(piece);
      this.queuedBytes += piece.length;
    }
    this.pump();
    return this.queuedBytes < HIGH_WATER_BYTES;
  }

  drained(): Promise<void> {
    if (this.isClosed || (this.queue.length === 0 && !this.awaitingAck)) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  end(): void {
    if (this.isClosed || this.endRequested) return;
    this.endRequested = true;
    this.pump();
  }

  onData(listener: (chunk: Buffer) => void | Promise<void>): void {
    this.dataListener = listener;
    void this.deliver();
  }

  /** The host acknowledged our last WRTE. */
  handleAck(): void {
    this.awaitingAck = false;
    this.pump();
  }

  /** The host sent a WRTE; it is acknowledged once the service has consumed it. */
  handleData(chunk: Buffer): void {
    if (this.isClosed) return;
    this.inbox.push(chunk);
    void this.deliver();
  }

  /** The host closed the stream, or the connection is gone. */
  handleRemoteClose(): void {
    if (this.isClosed) return;
    this.finish();
  }

  private async deliver(): Promise<void> {
    if (this.delivering || !this.dataListener) return;
    this.delivering = true;
    try {
      while (this.inbox.length > 0 && !this.isClosed) {
        const chunk = this.inbox.shift() as Buffer;
        try {
          await this.dataListener(chunk);
        } catch {
          // A failing consumer must not wedge the host: it still gets its OKAY.
        }
        if (!this.isClosed) this.wire.sendOkay(this.localId, this.remoteId);
      }
    } finally {
      this.delivering = false;
    }
  }

  private pump(): void {
    if (this.isClosed || this.awaitingAck) return;
    const next = this.queue.shift();
    if (next) {
      this.queuedBytes -= next.length;
      this.awaitingAck = true;
      this.wire.sendWrite(this.localId, this.remoteId, next);
      return;
    }
    this.resolveDrainWaiters();
    if (this.endRequested) {
      this.wire.sendClose(this.localId, this.remoteId);
      this.finish();
    }
  }

  private finish(): void {
    this.isClosed = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
    this.inbox.length = 0;
    this.resolveDrainWaiters();
    this.wire.forget(this.localId);
    this.abortController.abort();
  }

  private resolveDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
