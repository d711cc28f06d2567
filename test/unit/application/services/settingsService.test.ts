import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../../support/fakes/harness.js';
import { launcherDump } from '../../../support/fakes/screens.js';

describe('settings_open_apps (adb only, no Appium)', () => {
  it('settings_open_apps waits for All apps and leaves evidence', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.google.android.apps.nexuslauncher';
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope).toMatchObject({ ok: true, data: { screen_marker: 'All apps' } });
    expect(envelope.evidence?.artifact_id).toMatch(/-settings-apps\.png$/);
    expect(h.automation.log).toEqual([]);
  });

  it('settings_open_apps: Settings not in front is SETTINGS_FOREGROUND_FAILED with failure evidence', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.android.launcher';
    h.device.onStart = () => undefined;
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope.error?.code).toBe('SETTINGS_FOREGROUND_FAILED');
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-settings-apps\.png$/);
    expect(h.clock.monotonicMs()).toBeLessThanOrEqual(8_500);
  });

  it('settings_open_apps: Settings without the Apps list is SETTINGS_FOREGROUND_FAILED after 8 s', async () => {
    const h = buildHarness();
    h.device.dump = launcherDump('com.android.settings');
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope.error?.code).toBe('SETTINGS_FOREGROUND_FAILED');
    expect(envelope.error?.message).toContain('All apps');
  });
});
