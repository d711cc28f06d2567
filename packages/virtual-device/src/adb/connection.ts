/**
 * One host connection (an adb server talking to this device over TCP): the CNXN
 * handshake, then streams multiplexed by id. Services are started through the
 * router; the connection only moves packets.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { DeviceConnectionState, DeviceServices } from '../contracts.js';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  DEVICE_MAX_DATA,
  MalformedPacketError,
  PacketReader,
  commandName,
  encodePacket,
  type AdbPacket,
} from './packet.js';
import { openService } from './router.js';
import { DeviceStream, type StreamWire } from './stream.js';

/** Features advertised in the banner: only what this transport implements. */
export function deviceFeatures(legacyPty: boolean): string[] {
  const features = ['cmd', 'stat_v2', 'ls_v2', 'fixed_push_mkdir', 'abb_exec'];
  return legacyPty ? features : ['shell_v2', ...features];
}

export function deviceBanner(services: DeviceServices, state: DeviceConnectionState): string {
  const { name, model, device } = services.bannerProperties();
  const prefix = state === 'recovery' ? 'recovery' : 'device';
  const features = deviceFeatures(services.legacyPty?.() ?? false).join(',');
  return `${prefix}::ro.product.name=${name};ro.product.model=${model};ro.product.device=${device};features=${features}`;
}

export class AdbConnection implements StreamWire {
  private readonly reader = new PacketReader(DEVICE_MAX_DATA);
  private readonly streams = new Map<number, DeviceStream>();
  private nextLocalId = 1;
  private hostMaxData = DEVICE_MAX_DATA;
  private connected = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly services: DeviceServices,
    private readonly onClosed: (connection: AdbConnection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  get maxPayload(): number {
    return Math.min(this.hostMaxData, DEVICE_MAX_DATA);
  }

  /** Drops the connection at once, aborting every running service. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stream of [...this.streams.values()]) stream.handleRemoteClose();
    this.streams.clear();
    if (!this.socket.destroyed) this.socket.destroy();
    this.onClosed(this);
  }

  sendWrite(localId: number, remoteId: number, payload: Buffer): void {
    this.send(A_WRTE, localId, remoteId, payload);
  }

  sendOkay(localId: number, remoteId: number): void {
    this.send(A_OKAY, localId, remoteId);
  }

  sendClose(localId: number, remoteId: number): void {
    this.send(A_CLSE, localId, remoteId);
  }

  forget(localId: number): void {
    this.streams.delete(localId);
  }

  private send(command: number, arg0: number, arg1: number, data?: Buffer): void {
    if (this.closed || this.socket.destroyed) return;
    this.socket.write(encodePacket(command, arg0, arg1, data));
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    if (!this.services.isOnline()) {
      this.close();
      return;
    }
    let packets: AdbPacket[];
    try {
      packets = this.reader.push(chunk);
    } catch (error) {
      const reason = error instanceof MalformedPacketError ? error.message : String(error);
      this.services.log('connect', `dropping connection: ${reason}`);
      this.close();
      return;
    }
    for (const packet of packets) {
      if (this.closed) return;
      this.handle(packet);
    }
  }

  private handle(packet: AdbPacket): void {
    switch (packet.command) {
      case A_CNXN:
        this.handleConnect(packet);
        return;
      case A_AUTH:
        this.handleAuth(packet);
        return;
      case A_OPEN:
        if (this.connected) this.handleOpen(packet);
        return;
      case A_OKAY:
        this.streams.get(packet.arg1)?.handleAck();
        return;
      case A_WRTE:
        this.streams.get(packet.arg1)?.handleData(packet.data);
        return;
      case A_CLSE:
        this.streams.get(packet.arg1)?.handleRemoteClose();
        return;
      default:
        this.services.log('connect', `ignoring packet ${commandName(packet.command)}`);
    }
  }

  private handleConnect(packet: AdbPacket): void {
    // A second CNXN means the host restarted its side: forget every stream.
    for (const stream of [...this.streams.values()]) stream.handleRemoteClose();
    this.streams.clear();
    this.hostMaxData = packet.arg1 > 0 ? packet.arg1 : DEVICE_MAX_DATA;
    const hostBanner = packet.data.toString('utf8').replace(/\0+$/, '');
    const state = this.services.connectionState?.() ?? 'device';
    this.services.log('connect', `CNXN from ${hostBanner || 'host'} (state ${state})`);
    if (state === 'unauthorized') {
      this.sendAuthChallenge();
      return;
    }
    this.connected = true;
    const version = Math.min(packet.arg0 >>> 0, A_VERSION);
    this.send(A_CNXN, version, DEVICE_MAX_DATA, Buffer.from(deviceBanner(this.services, state), 'utf8'));
  }

  /**
   * An unauthorized device rejects every signature and then waits forever for the
   * user to accept the offered public key: the adb server lists it as `unauthorized`.
   */
  private handleAuth(packet: AdbPacket): void {
    if (this.connected) return;
    if (packet.arg0 === AUTH_SIGNATURE) this.sendAuthChallenge();
    // AUTH_RSAPUBLICKEY: the prompt is shown on the device and never confirmed.
  }

  private sendAuthChallenge(): void {
    this.send(A_AUTH, AUTH_TOKEN, 0, randomBytes(20));
  }

  private handleOpen(packet: AdbPacket): void {
    const remoteId = packet.arg0;
    const service = packet.data.toString('utf8').replace(/\0+$/, '');
    const localId = this.nextLocalId++;
    const stream = new DeviceStream(localId, remoteId, this);
    const start = openService(service, this.services);
    if (!start) {
      this.send(A_CLSE, 0, remoteId);
      return;
    }
    this.streams.set(localId, stream);
    this.send(A_OKAY, localId, remoteId);
    start(stream);
  }
}
