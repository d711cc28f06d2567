import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../src/domain/errors.js';
import { guardCall, needsEndpointGuard, type GuardPolicy, type Reach } from '../../../src/domain/guards.js';
import { buildHarness } from '../../support/fakes/harness.js';

const SAFE: GuardPolicy = { allowSerials: [], appiumUrl: 'http://127.0.0.1:4723', remote: false };

function codeOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof HarnessError) return error.code;
    throw error;
  }
}

describe('guardCall: which guards a call needs, in order', () => {
  it.each([
    ['adb', false, false],
    ['appium', false, true],
    ['act', false, true],
    ['adb', true, true],
    ['appium', true, true],
    ['act', true, true],
  ] as const)('reach %s (remote %s) needs the endpoint guard: %s', (reach, remote, needed) => {
    expect(needsEndpointGuard(reach, remote)).toBe(needed);
  });

  it('the device guard speaks first: a bad serial under a bad endpoint is EMULATOR_UNAVAILABLE, whatever the reach', () => {
    const policy = { ...SAFE, appiumUrl: 'http://10.0.0.5:4723' };
    for (const reach of ['adb', 'appium', 'act'] as Reach[]) {
      expect(
        codeOf(() => guardCall('R58M12345', reach, policy)),
        reach,
      ).toBe('EMULATOR_UNAVAILABLE');
    }
  });

  it('a good serial under a bad endpoint: refused for Appium and actions, not for an adb observer (outside remote mode)', () => {
    const policy = { ...SAFE, appiumUrl: 'http://10.0.0.5:4723' };
    expect(codeOf(() => guardCall('emulator-5554', 'adb', policy))).toBeNull();
    expect(codeOf(() => guardCall('emulator-5554', 'appium', policy))).toBe('APPIUM_UNAVAILABLE');
    expect(codeOf(() => guardCall('emulator-5554', 'act', policy))).toBe('APPIUM_UNAVAILABLE');
    // Remote mode: the observer reads through a session, with credentials, so it is refused too.
    expect(codeOf(() => guardCall('emulator-5554', 'adb', { ...policy, remote: true }))).toBe('APPIUM_UNAVAILABLE');
  });

  it('an allow-listed serial and a safe endpoint pass', () => {
    expect(codeOf(() => guardCall('127.0.0.1:5555', 'act', { ...SAFE, allowSerials: ['127.0.0.1:5555'] }))).toBeNull();
    expect(codeOf(() => guardCall('emulator-5554', 'act', SAFE))).toBeNull();
  });
});

describe('the guards at the boundaries: nothing reaches adb or Appium before them', () => {
  const TOOLS: [string, Record<string, unknown>][] = [
    ['emulator_get_status', {}],
    ['ui_get_tree', {}],
    ['app_open', { package_name: 'com.example.app' }],
    ['ui_session_open', {}],
    ['ui_tap', { selector: { text: 'Calendar' } }],
    ['device_back', {}],
  ];

  it('a bad serial under a bad endpoint: every tool answers the device refusal, and neither adb nor Appium was called', async () => {
    const h = buildHarness({ udid: 'R58M12345', appiumUrl: 'http://10.0.0.5:4723' });
    for (const [tool, args] of TOOLS) {
      expect((await h.envelope(tool, args)).error?.code, tool).toBe('EMULATOR_UNAVAILABLE');
    }
    expect(h.device.calls).toEqual([]);
    expect(h.automation.log).toEqual([]);
  });
});
