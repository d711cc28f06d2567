import { Duplex } from 'node:stream';

/**
 * Two connected in-memory Duplex ends: bytes written to one are read from the other,
 * end() on one ends the other's readable side, destroy() tears both down. Handing one
 * end to `http.Server.emit('connection', end)` serves HTTP without a TCP port, which is
 * what a DeviceServices.openTcp() returns for the UiAutomator2 port.
 */
export function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const make = (index: 0 | 1): Duplex =>
    new Duplex({
      read() {
        // Data is pushed by the other end's write().
      },
      write(chunk: Buffer, _encoding, callback) {
        const peer = ends[1 - index];
        if (peer && !peer.destroyed) peer.push(chunk);
        callback();
      },
      final(callback) {
        const peer = ends[1 - index];
        if (peer && !peer.destroyed) peer.push(null);
        callback();
      },
      destroy(error, callback) {
        const peer = ends[1 - index];
        if (peer && !peer.destroyed) peer.destroy();
        callback(error);
      },
    });
  ends.push(make(0), make(1));
  return [ends[0] as Duplex, ends[1] as Duplex];
}
