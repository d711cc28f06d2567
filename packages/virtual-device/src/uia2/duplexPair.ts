/**
 * Two connected in-memory streams: what one writes the other reads. One end goes to the
 * ADB transport (`tcp:6790`), the other to the UIA2 http.Server through
 * `server.emit('connection', end)`, so the fake server needs no TCP port.
 */
import { Duplex } from 'node:stream';

/** The bits of net.Socket that node:http calls on a connection. */
function asSocketLike(stream: Duplex): Duplex {
  const socketish = stream as Duplex & Record<string, unknown>;
  socketish.setTimeout = (): Duplex => stream;
  socketish.setNoDelay = (): Duplex => stream;
  socketish.setKeepAlive = (): Duplex => stream;
  socketish.ref = (): Duplex => stream;
  socketish.unref = (): Duplex => stream;
  socketish.remoteAddress = '127.0.0.1';
  socketish.remotePort = 6790;
  socketish.localAddress = '127.0.0.1';
  socketish.localPort = 6790;
  return stream;
}

export function duplexPair(): [Duplex, Duplex] {
  // eslint-disable-next-line prefer-const
  let right: Duplex;
  const make = (peer: () => Duplex): Duplex =>
    new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        const other = peer();
        if (!other.destroyed) other.push(chunk);
        callback();
      },
      final(callback) {
        const other = peer();
        if (!other.destroyed) other.push(null);
        callback();
      },
      destroy(error, callback) {
        const other = peer();
        if (!other.destroyed) {
          other.push(null);
          other.destroy();
        }
        callback(error);
      },
    });
  const left = make(() => right);
  right = make(() => left);
  return [asSocketLike(left), asSocketLike(right)];
}
