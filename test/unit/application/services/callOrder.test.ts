import { describe, expect, it } from 'vitest';
import { buildHarness, envelopeOf, type TestHarness } from '../../../support/fakes/harness.js';

/** A call that holds the gate until released (emulator_get_status no longer takes it: it runs beside any owner). */
function holdGate(h: TestHarness): { pending: Promise<unknown>; release: () => void } {
  h.device.hang.add('listPackages');
  const pending = h.call('app_list_installed');
  return {
    pending,
    release: () => {
      h.device.hang.delete('listPackages');
    },
  };
}

describe('validation comes before the gate and the session checks', () => {
  it.each([
    ['ui_tap', { selector: { text: '' } }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: { text: 'a', resource_id: 'b' } }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: 'Calendar' }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: { text: 'Calendar', x: 10, y: 20 } }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: { text: 'Calendar' }, long_press: 'true' }, 'INVALID_ARGUMENT'],
    ['ui_tap', { selector: { text: 'Calendar' }, long_press: 1 }, 'INVALID_ARGUMENT'],
    ['ui_type_text', { selector: { text: 'Search' }, text: 'line\nbreak' }, 'INVALID_TEXT'],
    ['ui_type_text', { selector: { text: 'Search' }, text: '' }, 'INVALID_TEXT'],
    ['app_open', { package_name: 'com.x; rm -rf /' }, 'INVALID_PACKAGE'],
    ['app_open', { package_name: '--user 0' }, 'INVALID_PACKAGE'],
    ['ui_scroll', { direction: 'sideways' }, 'INVALID_SCROLL_DIRECTION'],
    ['ui_scroll', { direction: 'right', selector: { x: 10, y: 20 } }, 'INVALID_SELECTOR'],
    ['ui_scroll', { direction: 'right', selector: 'com.example:id/day_strip' }, 'INVALID_SELECTOR'],
    ['device_back', { session_id: 'short' }, 'INVALID_UI_SESSION'],
    ['ui_session_close', {}, 'INVALID_UI_SESSION'],
    ['ui_get_tree', { session_id: 'has spaces in it and is long enough' }, 'INVALID_UI_SESSION'],
    // "yes" used to be ignored silently; only the JSON booleans are accepted.
    ['ui_get_tree', { include_raw: 'yes' }, 'INVALID_ARGUMENT'],
    ['ui_get_tree', { include_raw: 'true' }, 'INVALID_ARGUMENT'],
    ['ui_get_tree', { include_raw: 1 }, 'INVALID_ARGUMENT'],
  ] as const)('%s %j answers %s while the gate is held, touching nothing', async (tool, args, code) => {
    const h = buildHarness();
    const held = holdGate(h);
    await new Promise((r) => setImmediate(r));
    expect(h.container.gate.isHeld).toBe(true);
    const callsBefore = h.device.calls.length;
    const envelope = envelopeOf(await h.call(tool, args as Record<string, unknown>));
    expect(envelope.error?.code).toBe(code);
    expect(h.device.calls.length).toBe(callsBefore);
    expect(h.automation.log).toEqual([]);
    held.release();
  });

  it('a valid call while the gate is held gets EMULATOR_BUSY at once, without waiting', async () => {
    const h = buildHarness();
    holdGate(h);
    await new Promise((r) => setImmediate(r));
    const started = h.clock.monotonicMs();
    const envelope = envelopeOf(await h.call('ui_get_tree'));
    expect(envelope.error?.code).toBe('EMULATOR_BUSY');
    expect(envelope.error?.message).toContain('app_list_installed');
    expect(h.clock.monotonicMs()).toBe(started);
    expect(h.device.calls).toEqual(['listPackages']);
  });

  it('emulator_get_status answers while another call holds the device, beside it', async () => {
    const h = buildHarness();
    const held = holdGate(h);
    await new Promise((r) => setImmediate(r));
    expect(h.container.gate.isHeld).toBe(true);
    const envelope = envelopeOf(await h.call('emulator_get_status'));
    expect(envelope.error, JSON.stringify(envelope.error)).toBeNull();
    expect(h.container.gate.isHeld).toBe(true);
    held.release();
  });

  it('two simultaneous calls never share the device', async () => {
    const h = buildHarness();
    const [a, b] = await Promise.all([h.call('app_list_installed'), h.call('screen_capture')]);
    // Which one wins is not promised (no queue); that exactly one does is.
    const codes = [envelopeOf(a), envelopeOf(b)].map((e) => (e.ok ? 'ok' : e.error?.code));
    expect(codes.sort()).toEqual(['EMULATOR_BUSY', 'ok']);
  });
});

describe('guards run before anything is sent', () => {
  const ALL_CALLS: [string, Record<string, unknown>][] = [
    ['emulator_get_status', {}],
    ['ui_get_tree', {}],
    ['screen_capture', {}],
    ['app_list_installed', {}],
    ['app_open', { package_name: 'com.example.app' }],
    ['ui_session_open', {}],
    ['ui_tap', { selector: { text: 'Calendar' } }],
    ['ui_type_text', { selector: { text: 'Calendar' }, text: 'hi' }],
    ['ui_scroll', { direction: 'down' }],
    ['device_back', {}],
    ['settings_open_apps', {}],
  ];

  it('a serial that is not an emulator is refused with EMULATOR_UNAVAILABLE and nothing reaches adb or Appium', async () => {
    const h = buildHarness({ udid: 'R58M12345' });
    for (const [tool, args] of ALL_CALLS) {
      const envelope = await h.envelope(tool, args);
      expect(envelope.error?.code, tool).toBe('EMULATOR_UNAVAILABLE');
      expect(envelope.error?.message).toContain('ANDROID_MCP_ALLOW_SERIALS');
    }
    expect(h.device.calls).toEqual([]);
    expect(h.automation.log).toEqual([]);
  });

  it('an allow-listed serial is accepted', async () => {
    const h = buildHarness({ udid: '127.0.0.1:5555', allowSerials: ['127.0.0.1:5555'] });
    expect((await h.envelope('app_list_installed')).ok).toBe(true);
  });

  it('a non-loopback Appium is refused with APPIUM_UNAVAILABLE before any request, and nothing mutating runs', async () => {
    const h = buildHarness({ appiumUrl: 'http://10.0.0.5:4723' });
    for (const tool of [
      'emulator_get_status',
      'ui_session_open',
      'ui_tap',
      'device_back',
      'app_open',
      'settings_open_apps',
    ] as const) {
      const args =
        tool === 'ui_tap'
          ? { selector: { text: 'Calendar' } }
          : tool === 'app_open'
            ? { package_name: 'com.android.settings' }
            : {};
      expect((await h.envelope(tool, args)).error?.code, tool).toBe('APPIUM_UNAVAILABLE');
    }
    expect(h.automation.log).toEqual([]);
    expect(h.device.calls).toEqual([]);
    // adb-only observers still work.
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
  });
});

describe('unclassified failures', () => {
  it('become INTERNAL_ERROR with the operation id, no stack and no host path', async () => {
    const h = buildHarness();
    h.device.listPackages = () => Promise.reject(new RangeError('boom at /home/dev/secret/file.ts:1:2'));
    const result = await h.call('app_list_installed');
    const envelope = envelopeOf(result);
    expect(result.isError).toBe(true);
    expect(envelope.error?.code).toBe('INTERNAL_ERROR');
    expect(envelope.error?.message).toContain(envelope.operation_id);
    expect(JSON.stringify(result)).not.toMatch(/\/home|RangeError|boom/);
    expect(h.logger.entries.some((e) => e.level === 'error' && String(e.fields?.cause).includes('boom'))).toBe(true);
  });
});
