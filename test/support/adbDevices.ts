/**
 * Connecting a TCP device (the virtual device, or an emulator's adb port) to a private
 * adb server and waiting for the state `adb devices` shows.
 */
import type { PrivateAdbServer } from './adbServer.js';
import { sleep } from './processes.js';

/** `adb devices` as serial → state ('device', 'offline', 'unauthorized', 'recovery', …). */
export async function listDevices(server: PrivateAdbServer): Promise<Map<string, string>> {
  const result = await server.adb(['devices'], { timeoutMs: 10_000 });
  const devices = new Map<string, string>();
  for (const line of result.stdout.toString('utf8').split('\n').slice(1)) {
    const [serial, state] = line.trim().split(/\s+/);
    if (serial && state) devices.set(serial, state);
  }
  return devices;
}

/**
 * Polls `adb devices` until `serial` is in one of `states` (pass 'absent' to wait for it to
 * vanish). Returns the state seen; throws with the last listing after timeoutMs.
 */
export async function waitForDeviceState(
  server: PrivateAdbServer,
  serial: string,
  states: readonly string[],
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last: Map<string, string>;
  for (;;) {
    last = await listDevices(server);
    const state = last.get(serial) ?? 'absent';
    if (states.includes(state)) return state;
    if (Date.now() > deadline) {
      throw new Error(
        `${serial} did not reach ${states.join('|')} within ${timeoutMs} ms; adb devices: ${JSON.stringify([...last])}`,
      );
    }
    await sleep(100);
  }
}

/** `adb connect 127.0.0.1:<port>`, then waits until the device is listed as `device`. Returns the serial. */
export async function connectDevice(server: PrivateAdbServer, port: number, timeoutMs = 15_000): Promise<string> {
  const serial = `127.0.0.1:${port}`;
  const result = await server.adb(['connect', serial], { timeoutMs });
  const output = result.stdout.toString('utf8') + result.stderr;
  if (result.code !== 0 || !/connected to/.test(output)) {
    throw new Error(`adb connect ${serial} failed (rc ${result.code}): ${output.trim()}`);
  }
  await waitForDeviceState(server, serial, ['device'], timeoutMs);
  return serial;
}

/** `adb disconnect <serial>`; never throws (teardown). */
export async function disconnectDevice(server: PrivateAdbServer, serial: string): Promise<void> {
  try {
    await server.adb(['disconnect', serial], { timeoutMs: 5_000 });
  } catch {
    // The server may already be gone; nothing to clean then.
  }
}
