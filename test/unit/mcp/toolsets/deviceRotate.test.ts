import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../../src/domain/errors.js';
import { expectEvidence } from '../../../support/evidenceShape.js';
import { buildHarness, drive } from '../../../support/fakes/harness.js';

describe('device_rotate (toolset device)', () => {
  it('sends the WebDriver orientation for each value, with evidence', async () => {
    const h = buildHarness({ toolsets: ['core', 'device'] });
    for (const orientation of ['landscape', 'portrait']) {
      const env = await drive(h.clock, h.envelope('device_rotate', { orientation }));
      expect(env, orientation).toMatchObject({ ok: true, data: { orientation }, error: null });
      expectEvidence(env.evidence, 'device-rotate', (id) => h.store.files.has(id));
    }
    expect(h.automation.sessions.flatMap((s) => s.orientations)).toEqual(['LANDSCAPE', 'PORTRAIT']);
  });

  it('refuses anything but the two lowercase words before the guard; a display that does not turn is said so', async () => {
    const refused = buildHarness({ toolsets: ['core', 'device'], udid: 'not-an-emulator' });
    for (const orientation of ['LANDSCAPE', 'upside-down', 90, null, undefined]) {
      const env = await refused.envelope('device_rotate', { orientation });
      expect(env.error?.code, String(orientation)).toBe('INVALID_ARGUMENT');
      expect(env.error?.message).toMatch(/"portrait" or "landscape"/);
    }
    expect(refused.automation.sessions).toHaveLength(0);
    const h = buildHarness({ toolsets: ['core', 'device'] });
    h.automation.failWith.setOrientation = new HarnessError(
      'UI_ELEMENT_NOT_FOUND',
      'The element refused the set orientation (invalid element state).',
    );
    const stuck = await drive(h.clock, h.envelope('device_rotate', { orientation: 'landscape' }));
    expect(stuck.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(stuck.error?.message).toBe(
      'The screen did not turn to landscape within 2 s: the app in front fixes its orientation, or the device does not rotate. Nothing else changed; call ui_get_tree to see the screen.',
    );
  });
});
