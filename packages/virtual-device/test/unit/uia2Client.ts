/** A UiAutomator2 client for the unit tests: HTTP over openTcp(6790) streams, as the ADB transport reaches the server. */
import http from 'node:http';
import { expect } from 'vitest';
import { VirtualDevice, type VirtualDeviceOptions } from '../../src/device/VirtualDevice.js';
import { sh } from './helpers.js';

export const W3C = 'element-6066-11e4-a52e-4f735466cecf';
export const INSTRUMENT =
  'am instrument -w -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';

export interface Reply {
  status: number;
  body: { sessionId?: string | null; value: unknown };
}

export function call(device: VirtualDevice, method: string, path: string, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = device.openTcp(6790);
    if (!socket) return reject(new Error('port 6790 refused'));
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        method,
        path,
        createConnection: () => socket as never,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply['body'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export const aborts: AbortController[] = [];

/** Ends every instrumentation `serving` started (call it from afterEach). */
export function stopServing(): void {
  for (const a of aborts.splice(0)) a.abort();
}

/** A default-scenario device with its UIA2 server up and one session open. */
export async function serving(
  options: VirtualDeviceOptions = {},
): Promise<{ device: VirtualDevice; instrument: Promise<{ stdout: string }>; sid: string }> {
  const device = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5, ...options });
  expect(device.openTcp(6790)).toBeNull();
  const abort = new AbortController();
  aborts.push(abort);
  const instrument = sh(device, INSTRUMENT, abort.signal);
  for (let i = 0; i < 100 && !device.instrumentation.isServing(); i++) await new Promise((r) => setTimeout(r, 5));
  expect((await call(device, 'GET', '/status')).body.value).toMatchObject({ ready: true });
  const created = await call(device, 'POST', '/session', {
    capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} },
  });
  const sid = created.body.sessionId as string;
  expect((created.body.value as { sessionId: string }).sessionId).toBe(sid);
  return { device, instrument, sid };
}
