import { describe, expect, it } from 'vitest';
import { Ceilings } from '../../../src/application/time/Ceilings.js';
import { UiSessions } from '../../../src/application/sessions/UiSessions.js';
import { OneSessionAtATime } from '../../../src/application/sessions/OneSessionAtATime.js';
import { WarmSession } from '../../../src/application/ownership/WarmSession.js';
import { SessionBroker } from '../../../src/application/sessions/SessionBroker.js';
import type { AutomationEndpointStatus } from '../../../src/domain/automationEndpoint.js';
import { HarnessError } from '../../../src/domain/errors.js';
import type { AutomationGateway, AutomationSession } from '../../../src/domain/ports.js';
import { FakeClock } from '../../support/FakeClock.js';
import { harnessError } from '../../support/harnessError.js';
import { SeededRandom } from '../../support/fakes/SeededRandom.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';

const ACTION_MS = 2_000;

/**
 * Appium on one device as the INV-SESSION-1 race met it: every swipe hangs (the injected fault),
 * and a session's delete ends, once Appium finishes it, with `am force-stop` of the UiAutomator2
 * server, which fails the calls in flight of whatever session that server serves by then.
 */
class OneDeviceAppium implements AutomationGateway {
  readonly opened: string[] = [];
  readonly deletes: { id: string; finish: () => void }[] = [];
  private readonly inFlight = new Set<(error: Error) => void>();

  async status(): Promise<AutomationEndpointStatus> {
    return { kind: 'appium', version: '3.8.0', ready: true };
  }

  async listSessionIds(): Promise<string[]> {
    return [];
  }

  async openSession(): Promise<AutomationSession> {
    const id = `s${this.opened.length + 1}`;
    this.opened.push(id);
    const hung = <T>(): Promise<T> => new Promise<T>((_resolve, reject) => this.inFlight.add(reject));
    const never = (): Promise<never> => Promise.reject(new Error('not used here'));
    return {
      id,
      findElement: never,
      findElements: never,
      elementLabel: never,
      elementText: never,
      elementPlace: never,
      elementBounds: never,
      isFocused: never,
      click: never,
      longClick: never,
      typeText: never,
      swipe: () => hung<void>(),
      pressAt: never,
      windowSize: async () => ({ width: 1080, height: 2400 }),
      back: never,
      pressKey: never,
      openNotifications: never,
      setOrientation: never,
      pageSource: never,
      screenshot: never,
      execute: never,
      close: () =>
        new Promise<void>((resolve) => {
          this.deletes.push({
            id,
            finish: () => {
              this.forceStopServer();
              resolve();
            },
          });
        }),
    };
  }

  private forceStopServer(): void {
    // What the gateway made of Appium's proxy error before it knew it ("socket hang up").
    for (const reject of this.inFlight)
      reject(new HarnessError('INTERNAL_ERROR', 'The automation driver failed during the swipe.'));
    this.inFlight.clear();
  }
}

function setup(wrap: (inner: AutomationGateway, clock: FakeClock) => AutomationGateway) {
  const clock = new FakeClock();
  const appium = new OneDeviceAppium();
  const ceilings = new Ceilings(clock, { actionTimeoutMs: ACTION_MS, connectTimeoutMs: 30_000 }, silentLogger);
  const automation = wrap(appium, clock);
  // Lease 0: each scroll opens its own session (the case a timeout's background close meets).
  const warm = new WarmSession(clock, ceilings, automation, silentLogger, 0);
  const sessions = new UiSessions(clock, new SeededRandom(1), ceilings, automation, silentLogger, 60_000, warm);
  const broker = new SessionBroker(sessions, warm);
  const scroll = (): Promise<void> =>
    broker.withSession(undefined, async (session) => {
      await session.windowSize();
      await session.swipe({
        start: { x: 540, y: 1800 },
        moves: [{ to: { x: 540, y: 600 }, durationMs: 300 }],
        holdMs: 0,
      });
    });
  return { clock, appium, scroll };
}

/** Two hung swipes in a row; the first one's session is still being deleted when the second call starts. */
async function twoHungScrolls(h: ReturnType<typeof setup>): Promise<HarnessError> {
  const first = harnessError(h.scroll());
  await h.clock.advance(ACTION_MS);
  expect((await first).code).toBe('OPERATION_TIMEOUT');
  expect(h.appium.deletes.map((d) => d.id)).toEqual(['s1']); // closing in the background

  const second = harnessError(h.scroll());
  await h.clock.advance(100);
  h.appium.deletes[0]?.finish(); // Appium finishes the old delete: force-stop of the server
  await h.clock.advance(ACTION_MS);
  return second;
}

describe('OneSessionAtATime: a new session waits for the close a timeout left behind', () => {
  it('the second hung swipe answers OPERATION_TIMEOUT: its session is only requested once the first is deleted', async () => {
    const h = setup((inner, clock) => new OneSessionAtATime(inner, clock, silentLogger));
    const error = await twoHungScrolls(h);
    expect(error.code, error.message).toBe('OPERATION_TIMEOUT');
    expect(error.message).toMatch(/a swipe within 2 s/);
    expect(h.appium.opened).toEqual(['s1', 's2']);
  });

  it('without it the old delete kills the new session mid-swipe and the answer is untyped (the flaky INV-SESSION-1)', async () => {
    const h = setup((inner) => inner);
    expect((await twoHungScrolls(h)).code).toBe('INTERNAL_ERROR');
  });

  it('opens at once when nothing is closing, and stops waiting for a close that never settles after the limit', async () => {
    const clock = new FakeClock();
    const appium = new OneDeviceAppium();
    const gateway = new OneSessionAtATime(appium, clock, silentLogger, 5_000);
    const first = await gateway.openSession({ idleTimeoutMs: 120_000 });
    expect(appium.opened).toEqual(['s1']);
    void first.close(); // never finishes
    let second: AutomationSession | null = null;
    void gateway.openSession({ idleTimeoutMs: 120_000 }).then((s) => (second = s));
    await clock.advance(4_999);
    expect(appium.opened).toEqual(['s1']);
    await clock.advance(1);
    expect(appium.opened).toEqual(['s1', 's2']);
    expect(second).not.toBeNull();
    // Closing twice is one delete.
    await clock.advance(0);
    void first.close();
    expect(appium.deletes).toHaveLength(1);
  });
});
