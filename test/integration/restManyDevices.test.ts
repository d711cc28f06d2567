/**
 * The REST mirror's `{id}` with two devices: one private adb server,
 * two virtual devices (A an emulator of AVD Pixel_7_API_34, B another device), one real Appium 3,
 * the built server over HTTP with ANDROID_UDID = A. A path naming B drives B, with or without the
 * session_id of a flow on B, and A is never touched; A's path with B's flow is refused; A answers
 * by its AVD name too; nothing is left behind.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { describeWithAdb } from '../support/adbServer.js';
import { bearerJson } from '../support/bearerJson.js';
import type { RunningAppium } from '../support/appium.js';
import { startHttpHarness, type HttpHarness } from '../support/httpHarness.js';
import { startManyDevicesStack, type ManyDevicesStack } from '../support/manyDevicesStack.js';
import { modernToolCallText } from '../support/modernToolCall.js';
import { freePort } from '../support/ports.js';
import { ensureBuilt } from '../support/rawServer.js';
import type { WireEnvelope as Envelope } from '../support/wireEnvelope.js';

const AVD = 'Pixel_7_API_34';
const TOKEN = 'rest-many-token-0123456789abcdef';

describeWithAdb('REST {id} with two devices: the path names the device that acts', () => {
  let many: ManyDevicesStack;
  let appium: RunningAppium;
  let server: HttpHarness;
  let base: string;
  let scratch: string;
  const deviceA = VirtualDevice.withDefaultScenario({ avdName: AVD });
  const deviceB = VirtualDevice.withDefaultScenario({ serialNumber: 'R58M0B0B0B' });
  let a: string;
  let b: string;

  beforeAll(async () => {
    ensureBuilt();
    many = await startManyDevicesStack({ label: 'rest-many', devices: [deviceA, deviceB] });
    ({ appium, scratch } = many);
    [a, b] = many.serials as [string, string];
    server = await startHttpHarness(many.harnessEnv({ ANDROID_UDID: a, ANDROID_MCP_HTTP_TOKEN: TOKEN }), [
      '--port',
      String(await freePort()),
    ]);
    base = new URL(server.url).origin;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await many?.stop();
  }, 60_000);

  async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; envelope: Envelope }> {
    const answer = await bearerJson(base, TOKEN, method, path, body);
    return { status: answer.status, envelope: answer.json as Envelope };
  }

  const mcp = async (name: string, args: Record<string, unknown>): Promise<Envelope> =>
    JSON.parse(await modernToolCallText(server.url, TOKEN, name, args)) as Envelope;

  const clicks = (device: VirtualDevice): number =>
    device.logEntries().filter((entry) => entry.kind === 'click').length;

  it('without session_id: /devices/B/… reads and taps B, never A (A is the default device)', async () => {
    deviceA.setScreen('settings_home' as never);
    deviceB.setScreen('notes_main' as never);
    const [clicksA, clicksB] = [clicks(deviceA), clicks(deviceB)];
    const status = await rest('GET', `/devices/${b}`);
    expect(status.status).toBe(200);
    expect(status.envelope.data.udid).toBe(b);
    const tree = await rest('GET', `/devices/${b}/tree`);
    expect(tree.status, JSON.stringify(tree.envelope.error)).toBe(200);
    expect(tree.envelope.data.foreground_package).toBe('com.example.notes');
    const typed = await rest('POST', `/devices/${b}/type`, { selector: { input_hint: 'Title' }, text: 'Milk' });
    expect(typed.status, JSON.stringify(typed.envelope.error)).toBe(200);
    expect(deviceB.nodes().find((n) => n.hint === 'Title')?.editableText).toBe('Milk');
    // A's own path still reads A.
    expect((await rest('GET', `/devices/${a}/tree`)).envelope.data.foreground_package).toBe('com.android.settings');
    const tap = await rest('POST', `/devices/${a}/tap`, { selector: { text: 'Apps' } });
    expect(tap.status).toBe(200);
    expect(clicks(deviceA)).toBe(clicksA + 1);
    expect(clicks(deviceB)).toBe(clicksB + 1);
    expect(deviceA.currentScreen().screenId).toBe('settings_apps');
    // By its AVD name, the same device.
    expect((await rest('POST', `/devices/${AVD}/back`)).status).toBe(200);
    expect(deviceA.currentScreen().screenId).toBe('settings_home');
  }, 120_000);

  it('with the session_id of a flow on B: /devices/B/… acts in it; /devices/A/… with it is 404 INVALID_UI_SESSION, nothing done', async () => {
    deviceA.setScreen('settings_home' as never);
    deviceB.setScreen('settings_home' as never);
    const opened = await mcp('ui_session_open', { device: b });
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    const sessionId = String(opened.data.session_id);
    try {
      const [clicksA, clicksB] = [clicks(deviceA), clicks(deviceB)];
      const tap = await rest('POST', `/devices/${b}/tap`, { selector: { text: 'Apps' }, session_id: sessionId });
      expect(tap.status, JSON.stringify(tap.envelope.error)).toBe(200);
      expect(clicks(deviceB)).toBe(clicksB + 1);
      expect(deviceB.currentScreen().screenId).toBe('settings_apps');
      expect((await rest('GET', `/devices/${b}/tree?session_id=${sessionId}`)).status).toBe(200);
      const wrong = await rest('POST', `/devices/${a}/tap`, { selector: { text: 'Apps' }, session_id: sessionId });
      expect(wrong.status).toBe(404);
      expect(wrong.envelope.error?.code).toBe('INVALID_UI_SESSION');
      expect(wrong.envelope.error?.message).toContain(`a UI session on ${b}`);
      expect(clicks(deviceA)).toBe(clicksA);
      expect(clicks(deviceB)).toBe(clicksB + 1);
      // B's own path without the session_id: B's flow owns it, as over MCP.
      expect((await rest('POST', `/devices/${b}/back`)).envelope.error?.code).toBe('EMULATOR_BUSY');
      // A is free meanwhile.
      expect((await rest('POST', `/devices/${a}/tap`, { selector: { text: 'Apps' } })).status).toBe(200);
    } finally {
      expect((await mcp('ui_session_close', { session_id: sessionId })).ok).toBe(true);
    }
  }, 120_000);

  it('an id that names no allowed online device is 404; nothing is left behind', async () => {
    const unknown = await rest('GET', '/devices/emulator-5598/tree');
    expect(unknown.status).toBe(404);
    expect(unknown.envelope.error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(await appium.sessionIds()).toEqual([]);
    expect(readdirSync(join(scratch, 'locks')).filter((name) => name.endsWith('.lock'))).toEqual([]);
  }, 60_000);
});
