/** Wire formats of the virtual device's ADB transport that the real adb is strict about. */
import { describe, expect, it } from 'vitest';
import { A_CNXN, A_WRTE, MalformedPacketError, PacketReader, encodePacket } from '../../src/adb/packet.js';
import {
  PtyLineDiscipline,
  ShellFrameReader,
  encodeShellFrame,
  parseShellService,
} from '../../src/adb/shellService.js';
import { encodeStatV2 } from '../../src/adb/syncService.js';
import { parseAbbExecService, streamedSize } from '../../src/adb/abbService.js';

describe('ADB packets', () => {
  it('encodes header fields little-endian with checksum and magic', () => {
    const packet = encodePacket(A_WRTE, 7, 9, Buffer.from([1, 2, 250]));
    expect(packet.length).toBe(27);
    expect(packet.readUInt32LE(0)).toBe(A_WRTE);
    expect(packet.readUInt32LE(4)).toBe(7);
    expect(packet.readUInt32LE(8)).toBe(9);
    expect(packet.readUInt32LE(12)).toBe(3);
    expect(packet.readUInt32LE(16)).toBe(253);
    expect(packet.readUInt32LE(20)).toBe((A_WRTE ^ 0xffffffff) >>> 0);
  });

  it('reassembles packets cut at any byte', () => {
    const wire = Buffer.concat([
      encodePacket(A_CNXN, 0x01000001, 4096, Buffer.from('host::\0')),
      encodePacket(A_WRTE, 1, 2, Buffer.alloc(100, 7)),
    ]);
    for (let cut = 0; cut <= wire.length; cut += 1) {
      const reader = new PacketReader();
      const packets = [...reader.push(wire.subarray(0, cut)), ...reader.push(wire.subarray(cut))];
      expect(packets.map((p) => [p.command, p.data.length])).toEqual([
        [A_CNXN, 7],
        [A_WRTE, 100],
      ]);
    }
  });

  it('rejects a bad magic and an oversized payload', () => {
    const bad = encodePacket(A_WRTE, 1, 2);
    bad.writeUInt32LE(0, 20);
    expect(() => new PacketReader().push(bad)).toThrow(MalformedPacketError);
    expect(() => new PacketReader(10).push(encodePacket(A_WRTE, 1, 2, Buffer.alloc(11)))).toThrow(MalformedPacketError);
  });
});

describe('shell services', () => {
  it('parses the service names adb 29 sends', () => {
    expect(parseShellService('shell,v2,TERM=xterm,raw:getprop a', false)).toEqual({
      command: 'getprop a',
      protocolV2: true,
      pty: false,
      origin: 'shell_v2',
    });
    expect(parseShellService('shell:ls', false)).toMatchObject({ protocolV2: false, pty: false, origin: 'shell' });
    expect(parseShellService('shell:ls', true)).toMatchObject({ pty: true });
    expect(parseShellService('shell,raw:ls', true)).toMatchObject({ pty: false });
    expect(parseShellService("exec:screencap '-p'", true)).toEqual({
      command: "screencap '-p'",
      protocolV2: false,
      pty: false,
      origin: 'exec',
    });
    expect(parseShellService('sync:', false)).toBeNull();
  });

  it('frames shell_v2 messages and reads them back across chunk boundaries', () => {
    const wire = Buffer.concat([encodeShellFrame(1, Buffer.from('out')), encodeShellFrame(3, Buffer.from([42]))]);
    const reader = new ShellFrameReader();
    const frames = [...reader.push(wire.subarray(0, 6)), ...reader.push(wire.subarray(6))];
    expect(frames).toEqual([
      { id: 1, data: Buffer.from('out') },
      { id: 3, data: Buffer.from([42]) },
    ]);
  });

  it('turns lone newlines into CRLF like a PTY, even across chunks', () => {
    const pty = new PtyLineDiscipline();
    const out = Buffer.concat([pty.translate(Buffer.from('a\nb\r')), pty.translate(Buffer.from('\nc\n'))]);
    expect(out.toString()).toBe('a\r\nb\r\nc\r\n');
  });
});

describe('sync and abb', () => {
  it('encodes a 72-byte STA2 reply, with ENOENT for a missing file', () => {
    const found = encodeStatV2('STA2', { mode: 0o100644, size: 5_000_000_000, mtimeSec: 1_700_000_000 });
    expect(found.length).toBe(72);
    expect(found.subarray(0, 4).toString()).toBe('STA2');
    expect(found.readUInt32LE(4)).toBe(0);
    expect(found.readUInt32LE(24)).toBe(0o100644);
    expect(found.readBigUInt64LE(40)).toBe(5_000_000_000n);
    expect(found.readBigInt64LE(56)).toBe(1_700_000_000n);
    expect(encodeStatV2('LST2', null).readUInt32LE(4)).toBe(2);
  });

  it('splits abb_exec arguments and finds the streamed size', () => {
    const args = parseAbbExecService(['abb_exec:package', 'install', '-r', '-S', '123', ''].join('\0'));
    expect(args).toEqual(['package', 'install', '-r', '-S', '123']);
    expect(streamedSize(args ?? [])).toBe(123);
    expect(streamedSize(['package', 'uninstall', 'x'])).toBeNull();
  });
});
