import { describe, expect, it } from 'vitest';
import { expectEvidence } from '../../../support/evidenceShape.js';
import { buildHarness, drive } from '../../../support/fakes/harness.js';

describe('device_key (toolset device)', () => {
  it('sends Home, Recents and Enter as their KeyEvent codes through the driver, Back as PressBack, with evidence after each', async () => {
    const h = buildHarness({ toolsets: ['core', 'device'] });
    for (const key of ['home', 'recents', 'enter', 'back']) {
      const env = await drive(h.clock, h.envelope('device_key', { key }));
      expect(env, key).toMatchObject({ ok: true, tool: 'device_key', data: { key }, error: null });
      expectEvidence(env.evidence, 'device-key', (id) => h.store.files.has(id));
      expect(Object.keys(env.data)).toEqual(expect.arrayContaining(['key', 'foreground_package']));
    }
    expect(h.automation.sessions.flatMap((s) => s.keys)).toEqual([3, 187, 66]);
    expect(h.automation.sessions.flatMap((s) => s.calls).filter((c) => c === 'back')).toHaveLength(1);
  });

  it('refuses any other key before the guard and the gate: nothing reaches the device', async () => {
    const h = buildHarness({ toolsets: ['core', 'device'], udid: 'not-an-emulator' });
    for (const key of ['HOME', 'power', 'reboot; rm -rf /', 3, null, undefined, ['home'], 'home\u0000']) {
      const env = await h.envelope('device_key', { key });
      expect(env.error?.code, String(key)).toBe('INVALID_ARGUMENT');
      expect(env.error?.message).toMatch(/"home", "recents", "enter", "back"/);
    }
    // A valid key meets the guard next (the serial above is refused), still before any session.
    const guarded = await h.envelope('device_key', { key: 'home' });
    expect(guarded.error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(h.automation.sessions).toHaveLength(0);
  });
});
