/**
 * Appium's own idle timeout (newCommandTimeout) follows the lease a session
 * serves. The real WebdriverAutomationGateway is wired into the container, over a driver that
 * keeps Appium's timer on the fake clock, so the capability checked is the one the gateway sends
 * and a session Appium would have dropped really fails.
 */
import { describe, expect, it } from 'vitest';
import { DRIVER_IDLE_MARGIN_MS, driverIdleTimeoutMs } from '../../../src/domain/driverIdleTimeout.js';
import { CONFIG_DEFAULTS, type HarnessConfig } from '../../../src/config.js';
import { buildDriverHarness } from '../../support/fakes/harness.js';
import { idleTimingRemote, type IdleTimingDriver } from '../../support/fakes/IdleTimingDriver.js';

const TAP = { selector: { text: 'Calendar' } };

function overIdleTimingAppium(config: Partial<HarnessConfig>) {
  let drivers: IdleTimingDriver[] = [];
  const h = buildDriverHarness(config, (clock) => {
    const timing = idleTimingRemote(clock);
    drivers = timing.drivers;
    return timing.remote;
  });
  const warnings = () =>
    h.logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').map((e) => e.message);
  return { ...h, drivers, warnings };
}

describe('the driver idle timeout follows the lease', () => {
  it('is the longer of the held idle time and the action ceiling, plus the margin', () => {
    expect(DRIVER_IDLE_MARGIN_MS).toBe(30_000);
    expect(driverIdleTimeoutMs(180_000, 90_000)).toBe(210_000);
    // A short lease still leaves a whole ceiling between two driver commands inside one call.
    expect(driverIdleTimeoutMs(5_000, 90_000)).toBe(120_000);
    expect(driverIdleTimeoutMs(0, 2_000)).toBe(32_000);
  });

  it('a 180 s flow lease stays usable after 75 s and 179 s idle, and the harness, not Appium, ends it', async () => {
    const h = overIdleTimingAppium({ sessionIdleTimeoutMs: 180_000 });
    const opened = await h.envelope('ui_session_open');
    expect(opened.data).toMatchObject({ idle_timeout_seconds: 180 });
    const id = (opened.data as { session_id: string }).session_id;
    const driver = h.drivers[0];
    expect(driver?.capabilities['appium:newCommandTimeout']).toBe(210);

    // The case: 75 s of thinking, then a tap.
    await h.clock.advance(75_000);
    const first = await h.envelope('ui_tap', { ...TAP, session_id: id });
    expect(first.error, JSON.stringify(first.error)).toBeNull();
    // Just inside the lease.
    await h.clock.advance(179_000);
    const second = await h.envelope('ui_tap', { ...TAP, session_id: id });
    expect(second.error, JSON.stringify(second.error)).toBeNull();
    expect(driver?.droppedByTimeout).toBe(false);
    expect(h.drivers).toHaveLength(1);

    // Unused for the whole lease: the harness's timer closes it while Appium still holds it.
    await h.clock.advance(180_000);
    expect(driver?.deleted).toBe(true);
    expect(driver?.droppedByTimeout).toBe(false);
    const late = await h.envelope('ui_tap', { ...TAP, session_id: id });
    expect(late.error?.code).toBe('INVALID_UI_SESSION');
    expect(late.error?.message).toContain('expired after 180 s');
    expect(h.warnings()).toEqual([]);
  });

  it('the default lease asks Appium for its own length plus the margin', async () => {
    const h = overIdleTimingAppium({ sessionIdleTimeoutMs: CONFIG_DEFAULTS.sessionIdleTimeoutSeconds * 1000 });
    expect((await h.envelope('ui_session_open')).ok).toBe(true);
    expect(h.drivers[0]?.capabilities['appium:newCommandTimeout']).toBe(CONFIG_DEFAULTS.sessionIdleTimeoutSeconds + 30);
  });

  it('a warm session asks for the action ceiling plus the margin, whatever the flow lease', async () => {
    const h = overIdleTimingAppium({ sessionIdleTimeoutMs: 600_000, actionTimeoutMs: 200_000 });
    const tapped = await h.envelope('ui_tap', TAP);
    expect(tapped.error, JSON.stringify(tapped.error)).toBeNull();
    expect(h.drivers[0]?.capabilities['appium:newCommandTimeout']).toBe(230);
    expect(h.drivers[0]?.deleted).toBe(true);
  });

  it('a session Appium already dropped voids the flow, and its close is no warning', async () => {
    const h = overIdleTimingAppium({ sessionIdleTimeoutMs: 180_000 });
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    const driver = h.drivers[0];
    if (!driver) throw new Error('no session was opened');
    // Appium restarted under the flow: it no longer knows the session.
    driver.deleted = true;
    const lost = await h.envelope('ui_tap', { ...TAP, session_id: id });
    expect(lost.error?.code).toBe('APPIUM_UNAVAILABLE');
    await h.clock.advance(0);
    expect(driver.commands.at(-1)).toBe('deleteSession');
    expect(h.warnings()).not.toContain('Appium session close failed');
    expect(
      h.logger.entries.some((e) => e.level === 'debug' && e.message === 'Appium session was already gone at close'),
    ).toBe(true);
    // The device is free for a new flow at once.
    expect((await h.envelope('ui_session_open')).ok).toBe(true);
  });
});
