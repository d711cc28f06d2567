/**
 * The device side of the ADB transport over TCP: what a real adb server finds on
 * 127.0.0.1:5555 (registered as emulator-5554) or reaches with `adb connect`.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { DeviceServices } from '../contracts.js';
import { AdbConnection } from './connection.js';

export interface AdbTransportOptions {
  /** TCP port to listen on; 0 picks a free one (read it back from the result). */
  readonly port: number;
  /** Loopback only: the device must never be reachable from another machine. */
  readonly host?: '127.0.0.1';
  readonly services: DeviceServices;
  /** How often the transport checks isOnline() to drop connections of a device gone offline. Default 100 ms. */
  readonly onlinePollMs?: number;
}

export interface AdbTransport {
  readonly port: number;
  /** Stops listening, drops every connection and puts the device away (`DeviceServices.close`). */
  close(): Promise<void>;
  /** Drops every current connection (the adb server sees the device go away and reconnects). */
  dropConnections(): void;
}

export async function startAdbTransport(options: AdbTransportOptions): Promise<AdbTransport> {
  const { services } = options;
  const host = options.host ?? '127.0.0.1';
  const connections = new Set<AdbConnection>();
  const sockets = new Set<Socket>();

  const dropConnections = (): void => {
    for (const connection of [...connections]) connection.close();
    for (const socket of [...sockets]) socket.destroy();
  };

  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    if (!services.isOnline()) {
      // An offline device refuses new connections: the adb server keeps it listed as offline.
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    services.log('connect', `host connected from ${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`);
    const connection = new AdbConnection(socket, services, (closed) => connections.delete(closed));
    connections.add(connection);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => services.log('connect', `listener error: ${error.message}`));

  let wasOnline = services.isOnline();
  const onlineWatch = setInterval(() => {
    const online = services.isOnline();
    if (!online && wasOnline) {
      services.log('connect', 'device went offline: dropping connections');
      dropConnections();
    }
    wasOnline = online;
  }, options.onlinePollMs ?? 100);
  onlineWatch.unref();

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    port,
    dropConnections,
    close: async () => {
      clearInterval(onlineWatch);
      dropConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close?.();
    },
  };
}
