/**
 * The waits for idle of a real device (docs/internals/device-quirks.md, quirk `idle-wait` and
 * QUIRK-DUMP-KILLED-1). The device runs on a clock whose sleeps move its time at once, so the
 * 10 s waits are measured in device time without taking 10 s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceClock } from '../../src/device/index.js';
import { VirtualDevice } from '../../src/device/VirtualDevice.js';
import { INSTRUMENT, W3C, aborts, call, serving, stopServing } from './uia2Client.js';
import { sh } from './helpers.js';

afterEach(stopServing);

/** Device time that moves by exactly what each sleep asked for (an aborted sleep moves nothing). */
class SteppingClock implements DeviceClock {
  ms = Date.UTC(2026, 11, 1, 9, 0, 0);
  nowMs(): number {
    return this.ms;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        if (!signal?.aborted) this.ms += Math.max(0, ms);
        resolve();
      }),
    );
  }
}

/** Device time `work` took. */
async function timed<T>(clock: SteppingClock, work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = clock.ms;
  const value = await work();
  return { value, ms: clock.ms - start };
}

const ROOT_MESSAGE =
  /^Timed out after \d+ms waiting for the root AccessibilityNodeInfo in the active window\. Make sure the active window is not constantly hogging the main UI thread/;

describe('uiautomator dump waits for idle', () => {
  it('on a screen that never idles the dump waits its whole 10 s budget, then prints "could not get idle state" (exit 0)', async () => {
    const clock = new SteppingClock();
    const device = VirtualDevice.withDefaultScenario({ clock, instrumentationStartupMs: 5 });
    expect((await timed(clock, () => sh(device, 'uiautomator dump /dev/tty'))).ms).toBe(0);
    device.injectFault({ kind: 'idle-state' });
    const dump = await timed(clock, () => sh(device, 'uiautomator dump /dev/tty'));
    expect(dump.value).toEqual({ stdout: '', stderr: 'ERROR: could not get idle state.\n', code: 0 });
    expect(dump.ms).toBe(10_000);
    // ui-busy never idles either: the dump fails on idle before it asks for the root.
    device.clearFaults();
    device.injectFault({ kind: 'ui-busy' });
    const busy = await timed(clock, () => sh(device, 'uiautomator dump /dev/tty'));
    expect(busy.value.stderr).toBe('ERROR: could not get idle state.\n');
    expect(busy.ms).toBe(10_000);
  });

  it('the dump holds UiAutomation while it waits: an instrumentation started meanwhile fails', async () => {
    const device = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });
    device.injectFault({ kind: 'idle-state' });
    const abort = new AbortController();
    const dump = sh(device, 'uiautomator dump /dev/tty', abort.signal);
    await new Promise((r) => setTimeout(r, 20));
    expect(device.instrumentation.uiAutomationHolder()).toBe('dump');
    expect((await sh(device, INSTRUMENT)).stdout).toMatch(/already registered!/);
    abort.abort();
    expect((await dump).stderr).toBe('ERROR: could not get idle state.\n');
    expect(device.instrumentation.uiAutomationHolder()).toBeNull();
  });
});

describe('the UiAutomator2 server waits for idle (waitForIdleTimeout)', () => {
  it('page source, finds and clicks wait waitForIdleTimeout (10 s by default) on a screen that never idles, then answer', async () => {
    const clock = new SteppingClock();
    const { device, sid } = await serving({ clock });
    device.setScreen('settings_home');
    expect((await call(device, 'GET', `/session/${sid}/appium/settings`)).body.value).toMatchObject({
      waitForIdleTimeout: 10000,
    });
    expect((await timed(clock, () => call(device, 'GET', `/session/${sid}/source`))).ms).toBe(0);
    device.injectFault({ kind: 'idle-state' });
    const source = await timed(clock, () => call(device, 'GET', `/session/${sid}/source`));
    expect(source.value.status).toBe(200);
    expect(String(source.value.body.value)).toContain('text="Apps"');
    expect(source.ms).toBe(10_000);
    const find = await timed(clock, () =>
      call(device, 'POST', `/session/${sid}/element`, { strategy: 'xpath', selector: '//*[@text="Apps"]' }),
    );
    expect(find.value.status).toBe(200);
    expect(find.ms).toBe(10_000);
    const id = (find.value.body.value as Record<string, string>)[W3C] as string;
    // Attribute reads do not wait; a click waits after it (Click.java).
    expect((await timed(clock, () => call(device, 'GET', `/session/${sid}/element/${id}/attribute/text`))).ms).toBe(0);
    const click = await timed(clock, () => call(device, 'POST', `/session/${sid}/element/${id}/click`));
    expect(click.value.status).toBe(200);
    expect(click.ms).toBe(10_000);
    expect(device.currentScreen().screenId).toBe('settings_apps');
    expect(
      device
        .log()
        .filter((e) => e.kind === 'uia2' && /waiting up to 10000 ms for the device to idle/.test(e.detail))
        .map((e) => e.detail.split(':')[0]),
    ).toEqual(['source', 'find', 'click']);
  });

  it('the setting shortens the wait, 0 skips it, a non-number is refused, and a new session starts from 10 s again', async () => {
    const clock = new SteppingClock();
    const { device, sid } = await serving({ clock });
    device.injectFault({ kind: 'idle-state' });
    expect(
      (await call(device, 'POST', `/session/${sid}/appium/settings`, { settings: { waitForIdleTimeout: 1500 } }))
        .status,
    ).toBe(200);
    expect((await timed(clock, () => call(device, 'GET', `/session/${sid}/source`))).ms).toBe(1_500);
    expect(
      (await call(device, 'POST', `/session/${sid}/appium/settings`, { settings: { waitForIdleTimeout: 0 } })).status,
    ).toBe(200);
    expect((await timed(clock, () => call(device, 'GET', `/session/${sid}/source`))).ms).toBe(0);
    const refused = await call(device, 'POST', `/session/${sid}/appium/settings`, {
      settings: { waitForIdleTimeout: 'soon' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.value).toMatchObject({ error: 'invalid argument' });
    const again = await call(device, 'POST', '/session', {
      capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} },
    });
    const sid2 = again.body.sessionId as string;
    expect((await call(device, 'GET', `/session/${sid2}/appium/settings`)).body.value).toMatchObject({
      waitForIdleTimeout: 10000,
    });
    expect((await timed(clock, () => call(device, 'GET', `/session/${sid2}/source`))).ms).toBe(10_000);
  });

  it('Back and a plain key press wait before the key (UiDevice); a key press with flags and a long press inject at once', async () => {
    const clock = new SteppingClock();
    const { device, sid } = await serving({ clock });
    device.setScreen('settings_apps');
    await call(device, 'POST', `/session/${sid}/appium/settings`, { settings: { waitForIdleTimeout: 2000 } });
    device.injectFault({ kind: 'idle-state' });
    expect(
      (await timed(clock, () => call(device, 'POST', `/session/${sid}/appium/device/press_keycode`, { keycode: 25 })))
        .ms,
    ).toBe(2_000);
    expect(
      (
        await timed(clock, () =>
          call(device, 'POST', `/session/${sid}/appium/device/press_keycode`, { keycode: 25, flags: 0 }),
        )
      ).ms,
    ).toBe(0);
    expect(
      (
        await timed(clock, () =>
          call(device, 'POST', `/session/${sid}/appium/device/long_press_keycode`, { keycode: 25 }),
        )
      ).ms,
    ).toBe(0);
    const back = await timed(clock, () => call(device, 'POST', `/session/${sid}/back`));
    expect(back.value.status).toBe(200);
    expect(back.ms).toBe(2_000);
    // setScreen put Apps straight on the launcher: Back leaves it.
    expect(device.currentScreen().screenId).toBe('launcher');
  });

  it('ui-busy: the root never comes, so page source and finds answer HTTP 500 unknown error after the idle wait plus 10 s', async () => {
    const clock = new SteppingClock();
    const { device, sid } = await serving({ clock });
    device.setScreen('settings_home');
    await call(device, 'POST', `/session/${sid}/appium/settings`, { settings: { waitForIdleTimeout: 1000 } });
    device.injectFault({ kind: 'ui-busy' });
    const source = await timed(clock, () => call(device, 'GET', `/session/${sid}/source`));
    expect(source.value.status).toBe(500);
    expect(source.value.body.value).toMatchObject({
      error: 'unknown error',
      message: expect.stringMatching(ROOT_MESSAGE),
    });
    expect(source.ms).toBe(11_000);
    const find = await timed(clock, () =>
      call(device, 'POST', `/session/${sid}/element`, { strategy: 'id', selector: 'android:id/title' }),
    );
    expect(find.value.status).toBe(500);
    expect(find.value.body.value).toMatchObject({
      error: 'unknown error',
      message: expect.stringMatching(ROOT_MESSAGE),
    });
    expect(find.ms).toBe(11_000);
    // Once the app lets go of its main thread, the same calls answer at once.
    device.clearFaults();
    expect((await timed(clock, () => call(device, 'GET', `/session/${sid}/source`))).value.status).toBe(200);
  });
});

describe('suspected: a dump killed beside a running instrumentation', () => {
  it('trait dumpConflict killed: exit 137 with no output while UiAutomator2 runs; the default refuses with the already-registered text', async () => {
    const device = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5, dumpConflict: 'killed' });
    // Without an instrumentation the trait changes nothing.
    expect((await sh(device, 'uiautomator dump /dev/tty')).stdout).toContain('</hierarchy>');
    const abort = new AbortController();
    aborts.push(abort);
    void sh(device, INSTRUMENT, abort.signal);
    for (let i = 0; i < 100 && !device.instrumentationRunning(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(await sh(device, 'uiautomator dump /dev/tty')).toEqual({ stdout: '', stderr: '', code: 137 });
    expect((await sh(device, 'pidof io.appium.uiautomator2.server')).stdout).toMatch(/^\d+\n$/);
    device.setDumpConflict('refused');
    const refused = await sh(device, 'uiautomator dump /dev/tty');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/IllegalStateException: UiAutomationService .*already registered!/);
    device.setDumpConflict('killed');
    device.resetTraits();
    expect((await sh(device, 'uiautomator dump /dev/tty')).code).toBe(1);
  });
});
