import { describe, expect, it } from 'vitest';
import { expectEvidence } from '../../../support/evidenceShape.js';
import { buildHarness } from '../../../support/fakes/harness.js';

describe('app_stop and app_clear_data (toolset apps)', () => {
  it('force-stop and clear an installed package, with evidence; app_clear_data is marked destructive', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    h.device.foreground = 'com.example.app';
    const stop = await h.envelope('app_stop', { package_name: 'com.example.app' });
    expect(stop).toMatchObject({
      ok: true,
      data: { stopped_package: 'com.example.app', foreground_package: 'com.google.android.apps.nexuslauncher' },
    });
    expectEvidence(stop.evidence, 'app-stop', (id) => h.store.files.has(id));
    const clear = await h.envelope('app_clear_data', { package_name: 'com.example.app' });
    expect(clear).toMatchObject({ ok: true, data: { cleared_package: 'com.example.app' } });
    expectEvidence(clear.evidence, 'app-clear-data', (id) => h.store.files.has(id));
    expect(h.device.stopped).toEqual(['com.example.app']);
    expect(h.device.cleared).toEqual(['com.example.app']);
    const tool = h.container.tools.find((t) => t.name === 'app_clear_data');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(tool?.description).toMatch(/^DESTRUCTIVE/);
  });

  it('refuses a package that is not installed (APP_NOT_FOUND) and a malformed one before the guard', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    expect((await h.envelope('app_stop', { package_name: 'com.not.there' })).error?.code).toBe('APP_NOT_FOUND');
    expect(h.device.stopped).toEqual([]);
    const refused = buildHarness({ toolsets: ['core', 'apps'], udid: 'bad-serial' });
    for (const value of ['a;reboot', '$(id)', '../x', '', 3, null]) {
      expect((await refused.envelope('app_clear_data', { package_name: value })).error?.code, String(value)).toBe(
        'INVALID_PACKAGE',
      );
    }
    expect((await refused.envelope('app_clear_data', { package_name: 'com.example.app' })).error?.code).toBe(
      'EMULATOR_UNAVAILABLE',
    );
    expect(refused.device.calls).toEqual([]);
  });
});

describe('app_stop and app_clear_data around a flow', () => {
  it('without session_id a flow blocks them (EMULATOR_BUSY); with its id they run inside it and the flow lives on', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    const opened = await h.envelope('ui_session_open', {});
    const sessionId = (opened.data as { session_id: string }).session_id;
    expect((await h.envelope('app_stop', { package_name: 'com.example.app' })).error?.code).toBe('EMULATOR_BUSY');
    expect(h.device.stopped).toEqual([]);
    expect(await h.envelope('app_stop', { package_name: 'com.example.app', session_id: sessionId })).toMatchObject({
      ok: true,
      data: { stopped_package: 'com.example.app' },
    });
    expect(
      await h.envelope('app_clear_data', { package_name: 'com.example.app', session_id: sessionId }),
    ).toMatchObject({ ok: true, data: { cleared_package: 'com.example.app' } });
    expect([h.device.stopped, h.device.cleared]).toEqual([['com.example.app'], ['com.example.app']]);
    // Another id is the flow's rule: EMULATOR_BUSY, nothing done.
    expect(
      (await h.envelope('app_stop', { package_name: 'com.example.app', session_id: 'x'.repeat(32) })).error?.code,
    ).toBe('EMULATOR_BUSY');
    expect(h.device.stopped).toHaveLength(1);
    expect((await h.envelope('ui_session_close', { session_id: sessionId })).ok).toBe(true);
  });
});
