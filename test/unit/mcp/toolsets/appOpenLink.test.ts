import { describe, expect, it } from 'vitest';
import { expectEvidence } from '../../../support/evidenceShape.js';
import { buildHarness } from '../../../support/fakes/harness.js';

describe('app_open_link (toolset apps)', () => {
  it('opens a link in the app that handles it, with evidence, and says which app did', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    const opened = await h.envelope('app_open_link', { url: 'https://example.com/item?id=42&ref=mail' });
    expect(opened).toMatchObject({
      ok: true,
      data: { handled_by: 'com.android.chrome', foreground_package: 'com.android.chrome' },
    });
    expectEvidence(opened.evidence, 'app-open-link', (id) => h.store.files.has(id));
    expect(h.device.links).toEqual([{ uri: 'https://example.com/item?id=42&ref=mail', pkg: null }]);
    const tool = h.container.tools.find((t) => t.name === 'app_open_link');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('a link no app handles is APP_NOT_FOUND naming the scheme, never the link', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    const refused = await h.envelope('app_open_link', { url: 'myapp://orders/42?token=SECRET' });
    expect(refused.error?.code).toBe('APP_NOT_FOUND');
    expect(refused.error?.message).toBe(
      "No app on the device opens this myapp: link (am start: unable to resolve Intent), so nothing was opened. Check the link's scheme and host against what the app declares; app_list_installed lists the apps.",
    );
    const inPackage = await h.envelope('app_open_link', {
      url: 'https://example.com/',
      package_name: 'com.example.app',
    });
    expect(inPackage.error?.message).toMatch(
      /^com\.example\.app does not open this https: link .* or leave out package_name to let Android choose;/,
    );
    const missing = await h.envelope('app_open_link', { url: 'https://example.com/', package_name: 'com.not.there' });
    expect(missing.error?.code).toBe('APP_NOT_FOUND');
    expect(h.device.links.map((l) => l.pkg)).toEqual([null, 'com.example.app']);
  });

  it('refuses a bad link or package before the guards, the gate or adb', async () => {
    const refused = buildHarness({ toolsets: ['core', 'apps'], udid: 'bad-serial' });
    for (const url of [
      "https://x.com/'; reboot",
      'https://x.com/$(id)',
      'FILE:///x',
      'file:///sdcard',
      '',
      3,
      null,
      ['https://x.com'],
    ]) {
      expect((await refused.envelope('app_open_link', { url })).error?.code, String(url)).toBe('INVALID_ARGUMENT');
    }
    expect(
      (await refused.envelope('app_open_link', { url: 'https://x.com', package_name: 'a;reboot' })).error?.code,
    ).toBe('INVALID_PACKAGE');
    expect((await refused.envelope('app_open_link', { url: 'https://x.com' })).error?.code).toBe(
      'EMULATOR_UNAVAILABLE',
    );
    expect(refused.device.calls).toEqual([]);
  });

  it('is refused while a flow owns the device, and opens inside the flow given its session_id', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    const flow = await h.envelope('ui_session_open', {});
    const busy = await h.envelope('app_open_link', { url: 'https://example.com/' });
    expect(busy.error?.code).toBe('EMULATOR_BUSY');
    const inFlow = await h.envelope('app_open_link', { url: 'https://example.com/', session_id: flow.data.session_id });
    expect(inFlow.ok).toBe(true);
    expect(h.device.links).toHaveLength(1);
  });

  it('behind the lock screen nothing is started (DEVICE_LOCKED)', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    h.device.lock = { locked: true, awake: true };
    expect((await h.envelope('app_open_link', { url: 'https://example.com/' })).error?.code).toBe('DEVICE_LOCKED');
    expect(h.device.links).toEqual([]);
  });
});
