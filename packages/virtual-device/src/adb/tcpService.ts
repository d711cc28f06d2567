/**
 * `tcp:<port>`: a stream into a device-side TCP port (what `adb forward` opens).
 * Both directions keep adb's flow control: the device's side pauses while the host
 * has too much unacknowledged data, and the host gets its OKAY only once the
 * device's side accepted the bytes.
 */
import type { Duplex } from 'node:stream';
import type { ServiceStream } from './stream.js';

export function parseTcpService(service: string): number | null {
  const match = /^tcp:(\d{1,5})$/.exec(service);
  if (!match) return null;
  const port = Number(match[1]);
  return port > 0 && port < 65536 ? port : null;
}

export function bridgeTcpService(stream: ServiceStream, socket: Duplex): void {
  let hostClosed = false;

  socket.on('data', (chunk: Buffer | string) => {
    if (!stream.write(chunk)) {
      socket.pause();
      void stream.drained().then(() => socket.resume());
    }
  });
  socket.on('end', () => stream.end());
  socket.on('close', () => stream.end());
  socket.on('error', () => stream.end());

  stream.onData(
    (chunk) =>
      new Promise<void>((resolve) => {
        if (socket.destroyed || socket.writableEnded) {
          resolve();
          return;
        }
        if (socket.write(chunk)) {
          resolve();
          return;
        }
        const done = (): void => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      }),
  );

  stream.aborted.addEventListener('abort', () => {
    if (hostClosed) return;
    hostClosed = true;
    // The client went away: nobody will read the rest, so the device's side is torn down.
    if (!socket.destroyed) socket.destroy();
  });
}
