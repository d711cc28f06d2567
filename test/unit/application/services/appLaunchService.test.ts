import { HarnessError } from '../../../../src/domain/errors.js';
import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../../support/fakes/harness.js';
import { launcherDump } from '../../../support/fakes/screens.js';

describe('observers: app_list_installed', () => {
  it('app_list_installed sorts and counts', async () => {
    const h = buildHarness();
    h.device.packages = ['b.two', 'a.one', 'b.two', 'c.three'];
    expect((await h.envelope('app_list_installed')).data).toEqual({
      packages: ['a.one', 'b.two', 'c.three'],
      count: 3,
    });
  });
});

describe('app_open (adb only, no Appium)', () => {
  it('app_open resolves the launcher activity, starts it, waits until visible and leaves evidence', async () => {
    const h = buildHarness();
    h.device.onStart = (component) => {
      h.device.foreground = component.split('/')[0] ?? null;
      // The window appears a second later, as a cold start does.
      h.device.dump = '<?xml version="1.0"?><hierarchy rotation="0"></hierarchy>';
      h.clock.setTimeout(() => (h.device.dump = launcherDump('com.example.app')), 1_000);
    };
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { opened_package: 'com.example.app', foreground_package: 'com.example.app' },
    });
    expect(envelope.evidence?.artifact_id).toMatch(/-app-open\.png$/);
    expect(h.device.calls).toContain('startActivity');
    expect(h.automation.log).toEqual([]);
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(1_000);
  });

  it('app_open: no launcher activity is APP_NOT_FOUND, with a hint for installed and missing packages', async () => {
    const h = buildHarness();
    const missing = await h.envelope('app_open', { package_name: 'com.not.there' });
    expect(missing.error?.code).toBe('APP_NOT_FOUND');
    expect(missing.error?.message).toContain('not installed');
    const noLauncher = await h.envelope('app_open', { package_name: 'com.android.chrome' });
    expect(noLauncher.error?.message).toContain('no single launcher activity');
    expect(h.device.calls).not.toContain('startActivity');
  });

  it('app_open: an app that never shows is APP_NOT_FOUND after 6 s, with failure evidence', async () => {
    const h = buildHarness();
    h.device.onStart = () => undefined; // Settings stays in front.
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope.error?.code).toBe('APP_NOT_FOUND');
    expect(envelope.error?.message).toContain('6 s');
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-app-open\.png$/);
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(5_500);
    expect(h.clock.monotonicMs()).toBeLessThan(7_000);
  });

  it('app_open: focused but its window still empty after 6 s (slow cold start) is APP_NOT_FOUND saying so', async () => {
    const h = buildHarness();
    h.device.onStart = (component) => {
      h.device.foreground = component.split('/')[0] ?? null;
      h.device.dump = launcherDump('com.google.android.apps.nexuslauncher');
    };
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope.error?.code).toBe('APP_NOT_FOUND');
    expect(envelope.error?.message).toMatch(/has focus, but its window still showed no content after 6 s/);
  });

  it('app_open: focused and no dump readable (a screen that never idles) still counts as opened', async () => {
    const h = buildHarness();
    h.device.onStart = (component) => {
      h.device.foreground = component.split('/')[0] ?? null;
      h.device.failWith.dumpUi = new HarnessError('UI_TREE_UNAVAILABLE', 'could not get idle state');
    };
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope).toMatchObject({ ok: true, data: { opened_package: 'com.example.app' } });
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(5_500);
  });
});
