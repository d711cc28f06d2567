/**
 * ADB transport packets: a 24-byte little-endian header
 * (command, arg0, arg1, data length, data checksum, magic = command ^ 0xFFFFFFFF)
 * followed by the payload.
 */

export const A_CNXN = 0x4e584e43;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_WRTE = 0x45545257;
export const A_CLSE = 0x45534c43;
export const A_AUTH = 0x48545541;

/** AUTH arg0 values. */
export const AUTH_TOKEN = 1;
export const AUTH_SIGNATURE = 2;
export const AUTH_RSAPUBLICKEY = 3;

/** The newest protocol version we speak (skips checksum verification on the host; we still send it). */
export const A_VERSION = 0x01000001;
/** The most payload we accept per packet; the host never sends more than this. */
export const DEVICE_MAX_DATA = 256 * 1024;

export const HEADER_SIZE = 24;

export interface AdbPacket {
  readonly command: number;
  readonly arg0: number;
  readonly arg1: number;
  readonly data: Buffer;
}

const COMMAND_NAMES: Record<number, string> = {
  [A_CNXN]: 'CNXN',
  [A_OPEN]: 'OPEN',
  [A_OKAY]: 'OKAY',
  [A_WRTE]: 'WRTE',
  [A_CLSE]: 'CLSE',
  [A_AUTH]: 'AUTH',
};

export function commandName(command: number): string {
  return COMMAND_NAMES[command] ?? `0x${command.toString(16)}`;
}

function checksum(data: Buffer): number {
  let sum = 0;
  for (const byte of data) sum += byte;
  return sum >>> 0;
}

export function encodePacket(command: number, arg0: number, arg1: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt32LE(command >>> 0, 0);
  header.writeUInt32LE(arg0 >>> 0, 4);
  header.writeUInt32LE(arg1 >>> 0, 8);
  header.writeUInt32LE(data.length, 12);
  header.writeUInt32LE(checksum(data), 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return data.length === 0 ? header : Buffer.concat([header, data]);
}

export class MalformedPacketError extends Error {}

/**
 * Reassembles packets from the arbitrary chunks a TCP socket delivers.
 * Throws MalformedPacketError on a bad magic or an oversized payload: the
 * connection cannot be resynchronised after that, so the caller drops it.
 */
export class PacketReader {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxData: number = 1024 * 1024) {}

  push(chunk: Buffer): AdbPacket[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const packets: AdbPacket[] = [];
    while (this.pending.length >= HEADER_SIZE) {
      const command = this.pending.readUInt32LE(0);
      const magic = this.pending.readUInt32LE(20);
      if ((command ^ 0xffffffff) >>> 0 !== magic) {
        throw new MalformedPacketError(`bad magic for command 0x${command.toString(16)}`);
      }
      const length = this.pending.readUInt32LE(12);
      if (length > this.maxData) {
        throw new MalformedPacketError(`payload of ${length} bytes exceeds ${this.maxData}`);
      }
      if (this.pending.length < HEADER_SIZE + length) break;
      packets.push({
        command,
        arg0: this.pending.readUInt32LE(4),
        arg1: this.pending.readUInt32LE(8),
        data: Buffer.from(this.pending.subarray(HEADER_SIZE, HEADER_SIZE + length)),
      });
      this.pending = this.pending.subarray(HEADER_SIZE + length);
    }
    return packets;
  }
}
