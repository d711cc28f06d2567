import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../../support/fakes/harness.js';
import { windowReads } from './support.js';

describe('actions: device_back', () => {
  it('device_back presses back then reads the foreground package', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.android.settings';
    // Only the press leads to the launcher: without it the answer would stay on Settings.
    h.automation.onBack = () => {
      h.device.foreground = 'com.google.android.apps.nexuslauncher';
    };
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.data).toEqual({
      back_to_package: 'com.google.android.apps.nexuslauncher',
      foreground_package: 'com.google.android.apps.nexuslauncher',
    });
    expect(h.automation.log.filter((l) => l.endsWith(':back'))).toHaveLength(1);
    expect(envelope.evidence?.artifact_id).toMatch(/-device-back\.png$/);
  });

  it('device_back reads the package in front first, then the foreground until it settles: old, none, then where Back led', async () => {
    const h = buildHarness();
    // The first read is the screen check before any session (not locked, awake).
    h.device.foregroundReads = [
      'com.android.settings',
      'com.android.settings',
      'com.android.settings',
      null,
      'com.google.android.apps.nexuslauncher',
    ];
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.data).toEqual({
      back_to_package: 'com.google.android.apps.nexuslauncher',
      foreground_package: 'com.google.android.apps.nexuslauncher',
    });
    expect(windowReads(h)).toBe(5);
    // Two waits of 150 ms (fake time) between the three reads after Back.
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(300);
    // The read before Back happens inside the session, right before the key; the evidence once settled.
    expect(h.automation.log.filter((l) => l.endsWith(':back'))).toHaveLength(1);
    expect(h.device.calls.lastIndexOf('screencap')).toBeGreaterThan(h.device.calls.lastIndexOf('getWindowState'));
    expect(envelope.evidence?.artifact_id).toMatch(/-device-back\.png$/);
  });

  it('device_back that stays in the same package (or only closes the keyboard) settles on two equal reads', async () => {
    const h = buildHarness();
    h.device.foregroundReads = [
      'com.android.settings',
      'com.android.settings',
      'com.android.settings',
      'com.android.settings',
    ];
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.data).toEqual({
      back_to_package: 'com.android.settings',
      foreground_package: 'com.android.settings',
    });
    expect(windowReads(h)).toBe(1 + 3);
  });

  it('device_back whose focus never settles: bounded at 1.5 s, reporting honestly what it saw last and that it had not settled', async () => {
    const h = buildHarness();
    h.device.foregroundReads = ['com.android.settings', 'com.android.settings', null];
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.ok).toBe(true);
    expect(envelope.data).toEqual({ back_to_package: null, foreground_package: null, foreground_settled: false });
    expect(h.clock.monotonicMs()).toBeLessThanOrEqual(1_600);
    // The screen check, the read before Back, then one every 150 ms from 0 to 1500 ms.
    expect(windowReads(h)).toBe(1 + 1 + 11);

    // Unknown before, and two packages taking turns: never two equal reads, so the last one seen, unsettled.
    const flapping = buildHarness();
    flapping.device.foregroundReads = [
      null,
      null,
      ...Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'com.a' : 'com.b')),
    ];
    const seen = await flapping.envelope('device_back', { observe: false });
    // The eleventh read after Back, the last within the bound, was com.a.
    expect(seen.data).toEqual({ back_to_package: 'com.a', foreground_package: 'com.a', foreground_settled: false });
  });
});
