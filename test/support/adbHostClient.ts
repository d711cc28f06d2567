/**
 * The adb client's side of the smart-socket protocol, for tests that want to open one
 * device service on a private adb server without spawning the adb binary (to open a
 * service the CLI never sends, or to time the transport without process start-up).
 */
import { connect } from 'node:net';

export interface DeviceServiceReply {
  /** 'OKAY' when the service was opened, 'FAIL' (with message) when the server or device refused it. */
  readonly status: 'OKAY' | 'FAIL' | 'CLOSED';
  readonly message: string;
  /** Everything the service sent until it closed. */
  readonly data: Buffer;
}

function request(text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from(body.length.toString(16).padStart(4, '0'), 'latin1'), body]);
}

/**
 * Opens `service` on the device `serial` through the adb server on 127.0.0.1:serverPort
 * (`host:transport:<serial>` then the service) and collects the reply until the device
 * closes the stream, or until timeoutMs.
 */
export function openDeviceService(
  serverPort: number,
  serial: string,
  service: string,
  timeoutMs = 10_000,
): Promise<DeviceServiceReply> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: serverPort, host: '127.0.0.1' });
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let stage: 'transport' | 'service' | 'data' = 'transport';
    let settled = false;
    const finish = (reply: DeviceServiceReply): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => {
      settled = true;
      socket.destroy();
      reject(new Error(`no reply to ${service} within ${timeoutMs} ms`));
    }, timeoutMs);

    const readStatus = (): 'OKAY' | 'FAIL' | null => {
      if (buffer.length < 4) return null;
      const status = buffer.subarray(0, 4).toString('latin1');
      if (status === 'OKAY') {
        buffer = buffer.subarray(4);
        return 'OKAY';
      }
      if (status === 'FAIL') return 'FAIL';
      throw new Error(`unexpected adb server reply ${JSON.stringify(status)}`);
    };
    const failMessage = (): string | null => {
      if (buffer.length < 8) return null;
      const length = Number.parseInt(buffer.subarray(4, 8).toString('latin1'), 16);
      if (buffer.length < 8 + length) return null;
      return buffer.subarray(8, 8 + length).toString('utf8');
    };

    socket.on('connect', () => socket.write(request(`host:transport:${serial}`)));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      try {
        while (stage !== 'data') {
          const status = readStatus();
          if (status === null) return;
          if (status === 'FAIL') {
            const message = failMessage();
            if (message !== null) finish({ status: 'FAIL', message, data: Buffer.alloc(0) });
            return;
          }
          if (stage === 'transport') {
            stage = 'service';
            socket.write(request(service));
          } else {
            stage = 'data';
          }
        }
      } catch (error) {
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on('close', () => {
      finish({
        status: stage === 'data' ? 'OKAY' : 'CLOSED',
        message: '',
        data: stage === 'data' ? buffer : Buffer.alloc(0),
      });
    });
    socket.on('error', () => undefined);
  });
}
