/**
 * `sync:`: the file-transfer protocol behind `adb push`, `adb pull` and `adb ls`.
 * Every request is `[id:4][len:u32le][payload]`; during a SEND the client streams
 * `DATA [len][bytes]` messages and ends with `DONE [mtime]` (no payload).
 */
import type { DeviceServices, VirtualFileStat } from '../contracts.js';
import type { ServiceStream } from './stream.js';

/** RECV sends file data in chunks of at most this many bytes (SYNC_DATA_MAX). */
export const SYNC_DATA_MAX = 64 * 1024;
const ENOENT = 2;
const S_IFDIR = 0o040000;

function id(name: string): Buffer {
  return Buffer.from(name, 'latin1');
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0, 0);
  return buffer;
}

function message(name: string, value: number, payload?: Buffer): Buffer {
  return payload ? Buffer.concat([id(name), u32(value), payload]) : Buffer.concat([id(name), u32(value)]);
}

function fail(text: string): Buffer {
  return message('FAIL', Buffer.byteLength(text), Buffer.from(text, 'utf8'));
}

/** The 72-byte reply to STA2/LST2 (and, with a name appended, a DNT2 entry). */
export function encodeStatV2(replyId: string, stat: VirtualFileStat | null): Buffer {
  const out = Buffer.alloc(72);
  out.write(replyId, 0, 'latin1');
  if (!stat) {
    out.writeUInt32LE(ENOENT, 4);
    return out;
  }
  out.writeUInt32LE(0, 4); // error
  out.writeBigUInt64LE(0n, 8); // dev
  out.writeBigUInt64LE(0n, 16); // ino
  out.writeUInt32LE(stat.mode >>> 0, 24);
  out.writeUInt32LE(1, 28); // nlink
  out.writeUInt32LE(0, 32); // uid
  out.writeUInt32LE(0, 36); // gid
  out.writeBigUInt64LE(BigInt(stat.size), 40);
  const time = BigInt(Math.trunc(stat.mtimeSec));
  out.writeBigInt64LE(time, 48); // atime
  out.writeBigInt64LE(time, 56); // mtime
  out.writeBigInt64LE(time, 64); // ctime
  return out;
}

function encodeStatV1(stat: VirtualFileStat | null): Buffer {
  return Buffer.concat([
    id('STAT'),
    u32(stat?.mode ?? 0),
    u32(stat?.size ?? 0),
    u32(stat ? Math.trunc(stat.mtimeSec) : 0),
  ]);
}

/** Directory listings are not part of DeviceServices: LIST/LIS2 answer an empty directory. */
function encodeEmptyListing(v2: boolean): Buffer {
  return v2 ? Buffer.concat([id('DONE'), Buffer.alloc(72)]) : Buffer.concat([id('DONE'), Buffer.alloc(16)]);
}

interface PendingSend {
  readonly path: string;
  readonly mode: number;
  readonly chunks: Buffer[];
}

export function runSyncService(stream: ServiceStream, services: DeviceServices): void {
  let pending: Buffer = Buffer.alloc(0);
  let send: PendingSend | null = null;

  const handleRequest = (requestId: string, payload: Buffer): boolean => {
    const path = payload.toString('utf8');
    switch (requestId) {
      case 'STAT':
        stream.write(encodeStatV1(services.statFile(path)));
        return true;
      case 'STA2':
      case 'LST2':
        stream.write(encodeStatV2(requestId, services.statFile(path)));
        return true;
      case 'LIST':
      case 'LIS2':
        services.log('sync', `${requestId} ${path} (listing not emulated: empty)`);
        stream.write(encodeEmptyListing(requestId === 'LIS2'));
        return true;
      case 'SEND': {
        const comma = path.lastIndexOf(',');
        const target = comma >= 0 ? path.slice(0, comma) : path;
        const mode = comma >= 0 ? Number.parseInt(path.slice(comma + 1), 10) : 0o100644;
        send = { path: target, mode: Number.isFinite(mode) ? mode : 0o100644, chunks: [] };
        return true;
      }
      case 'RECV': {
        services.log('sync', `RECV ${path}`);
        const bytes = services.readFile(path);
        const stat = bytes ? null : services.statFile(path);
        if (!bytes) {
          stream.write(
            fail(
              stat && (stat.mode & S_IFDIR) !== 0
                ? 'open failed: Is a directory'
                : 'open failed: No such file or directory',
            ),
          );
          return true;
        }
        const parts: Buffer[] = [];
        for (let offset = 0; offset < bytes.length; offset += SYNC_DATA_MAX) {
          const piece = bytes.subarray(offset, offset + SYNC_DATA_MAX);
          parts.push(message('DATA', piece.length, piece));
        }
        parts.push(message('DONE', 0));
        stream.write(Buffer.concat(parts));
        return true;
      }
      case 'QUIT':
        stream.end();
        return false;
      default:
        services.log('sync', `unknown sync request ${JSON.stringify(requestId)}`);
        stream.write(fail(`unknown sync request ${requestId}`));
        stream.end();
        return false;
    }
  };

  const finishSend = (current: PendingSend): void => {
    const bytes = Buffer.concat(current.chunks);
    services.log('sync', `SEND ${current.path} (${bytes.length} bytes, mode 0${current.mode.toString(8)})`);
    try {
      services.writeFile(current.path, bytes, current.mode);
      stream.write(message('OKAY', 0));
    } catch (error) {
      stream.write(fail(error instanceof Error ? error.message : String(error)));
    }
  };

  stream.onData((chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 8 && !stream.closed) {
      const requestId = pending.subarray(0, 4).toString('latin1');
      const length = pending.readUInt32LE(4);
      if (send) {
        if (requestId === 'DONE') {
          pending = pending.subarray(8);
          const current = send;
          send = null;
          finishSend(current);
          continue;
        }
        if (requestId !== 'DATA') {
          stream.write(fail(`expected DATA or DONE during SEND, got ${requestId}`));
          stream.end();
          return;
        }
      }
      if (pending.length < 8 + length) return;
      const payload = Buffer.from(pending.subarray(8, 8 + length));
      pending = pending.subarray(8 + length);
      if (send) {
        send.chunks.push(payload);
        continue;
      }
      if (!handleRequest(requestId, payload)) return;
    }
  });
}
