/**
 * In the virtual device: set-text can be refused (items 3), a swipe belongs to the
 * window it starts in (item 4), and a fast swipe flings like a RecyclerView (item 5).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { detectHelperVersions } from '../../../packages/virtual-device/src/device/helperVersions.js';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/VirtualDevice.js';
import { defaultScenario } from '../../../packages/virtual-device/src/scenario/defaultScenario.js';
import { LONG_SEARCH_SCREEN, withLongSearch } from '../../support/gestureScenario.js';
import {
  flingDistance,
  listTravel,
  releaseVelocityY,
  straightStroke,
} from '../../../packages/virtual-device/src/device/touch.js';
import { W3C, call, serving, stopServing } from '../../../packages/virtual-device/test/unit/uia2Client.js';

afterEach(stopServing);

const offset = (d: VirtualDevice): number => d.ui.current().scroll.get('list') ?? 0;
const visibleApps = (d: VirtualDevice): string[] =>
  d
    .nodes()
    .filter(
      (n) => n.className === 'android.widget.TextView' && n.text !== '' && !/MB$/.test(n.text) && n.bounds.top >= 400,
    )
    .map((n) => n.text);

/** A W3C touch swipe: down, pause 50, the moves, an optional hold, up. */
function touch(moves: readonly { y: number; ms: number }[], startY: number, holdMs = 0): unknown {
  return {
    actions: [
      {
        type: 'pointer',
        id: 'finger1',
        parameters: { pointerType: 'touch' },
        actions: [
          { type: 'pointerMove', duration: 0, origin: 'viewport', x: 540, y: startY },
          { type: 'pointerDown', button: 0 },
          { type: 'pause', duration: 50 },
          ...moves.map((m) => ({ type: 'pointerMove', duration: m.ms, origin: 'viewport', x: 540, y: m.y })),
          ...(holdMs > 0 ? [{ type: 'pause', duration: holdMs }] : []),
          { type: 'pointerUp', button: 0 },
        ],
      },
    ],
  };
}

describe('scroll physics (touch.ts)', () => {
  it('release velocity: the slope over the last 100 ms of samples; a straight 1200 px / 300 ms drag is 4000 px/s', () => {
    expect(releaseVelocityY(straightStroke(540, 1800, 540, 600, 300))).toBeCloseTo(-4000, 0);
    expect(releaseVelocityY({ samples: [{ t: 0, x: 0, y: 0 }], up: { t: 500, x: 0, y: 0 } })).toBe(0);
  });

  it("fling distance follows OverScroller's spline: 4000 px/s at 420 dpi coasts about 1060 px", () => {
    expect(flingDistance(4000, 420)).toBeCloseTo(1059.86, 1);
    expect(flingDistance(8000, 420)).toBeGreaterThan(2 * flingDistance(4000, 420));
  });

  it('a RecyclerView loses the 8 dp touch slop and flings only at 50 dp/s or more', () => {
    const fast = listTravel(straightStroke(540, 1800, 540, 600, 300), 420);
    // 1200 px - 21 px slop (the last MOVE is 5 ms before the lift: 20 px short of the end).
    expect(fast.drag).toBe(1800 - 620 - 21);
    expect(fast.fling).toBeGreaterThan(1000);
    // 60 px in 1 s is 60 px/s, under 50 dp/s = 131 px/s at 420 dpi: no fling.
    const slow = listTravel(straightStroke(540, 1800, 540, 1740, 1000), 420);
    expect(slow.drag).toBeGreaterThan(0);
    expect(slow.fling).toBe(0);
  });
});

describe('a fast swipe flings the All apps list past the finger (item 5)', () => {
  it('input swipe 1200 px in 300 ms moves the content about 2200 px: rows between two screens were never shown', () => {
    const d = VirtualDevice.withDefaultScenario();
    d.setScreen('all_apps');
    const before = visibleApps(d);
    expect(d.ui.swipe(540, 1800, 540, 600, 'test')).toBe(true);
    expect(offset(d)).toBeGreaterThan(1179 + 1000);
    const after = visibleApps(d);
    // Rows 0-9 were on screen before, rows 11-20 after: row 10 ('Gmail') was skipped.
    expect(before).not.toContain('Gmail');
    expect(after).not.toContain('Gmail');
    expect(d.log().some((e) => e.kind === 'screen' && /fling: scrolled list/.test(e.detail))).toBe(true);
  });

  it('through UIA2: a 300 ms W3C swipe flings, the same drag with a slow creep and a hold does not', async () => {
    const { device, sid } = await serving();
    device.setScreen('all_apps');
    expect((await call(device, 'POST', `/session/${sid}/actions`, touch([{ y: 600, ms: 300 }], 1800))).status).toBe(
      200,
    );
    const flung = offset(device);
    // The tokenizer's first MOVE repeats the start point: 1200 px arrive in 280 ms, -21 px slop, plus the fling.
    expect(flung).toBeGreaterThan(1200 + 1000 - 21);
    device.setScreen('all_apps');
    const creep = touch(
      [
        { y: 611, ms: 400 },
        { y: 600, ms: 200 },
      ],
      1800,
      100,
    );
    expect((await call(device, 'POST', `/session/${sid}/actions`, creep)).status).toBe(200);
    expect(offset(device)).toBe(1200 - 21);
    const line =
      device
        .log()
        .filter((e) => e.kind === 'input' && / swipe /.test(e.detail))
        .at(-1)?.detail ?? '';
    expect(line).toMatch(/drag 1179 px, release -55 px\/s, no fling/);
  });

  it('the liftoff pause alone does not stop a fling (older VelocityTracker rule): velocity is the last 100 ms of moves', async () => {
    const { device, sid } = await serving();
    device.setScreen('all_apps');
    await call(device, 'POST', `/session/${sid}/actions`, touch([{ y: 600, ms: 300 }], 1800, 500));
    expect(offset(device)).toBeGreaterThan(1200 + 1000 - 21);
  });
});

describe('a swipe belongs to the window it starts in (item 4)', () => {
  it('with the IME open, a swipe from inside its frame scrolls the keyboard, not the list; from above it, the list', () => {
    const d = new VirtualDevice(withLongSearch(defaultScenario(detectHelperVersions())));
    d.setScreen(LONG_SEARCH_SCREEN);
    expect(d.imeVisible()).toBe(true);
    // 75 % of 2400 is 1800, inside the IME frame [0,1517][1080,2400].
    expect(d.ui.swipe(540, 1800, 540, 600, 'test', 2000)).toBe(false);
    expect(offset(d)).toBe(0);
    expect(d.log().at(-1)?.detail).toMatch(/on the keyboard: the IME window takes it, the app does not move/);
    expect(d.ui.swipe(540, 1400, 540, 600, 'test', 2000)).toBe(true);
    expect(offset(d)).toBeGreaterThan(700);
  });

  it('a swipe that starts on the status bar or the navigation bar goes to System UI', () => {
    const d = VirtualDevice.withDefaultScenario();
    d.setScreen('all_apps');
    expect(d.ui.swipe(540, 2300, 540, 1000, 'test', 2000)).toBe(false);
    expect(d.log().at(-1)?.detail).toMatch(/on the navigation bar: System UI takes it/);
    expect(d.ui.swipe(540, 30, 540, 1000, 'test', 2000)).toBe(false);
    expect(d.log().at(-1)?.detail).toMatch(/on the status bar: System UI takes it/);
    expect(offset(d)).toBe(0);
  });
});

describe('set-text can be refused (item 3)', () => {
  async function elementBy(device: VirtualDevice, sid: string, xpath: string): Promise<string> {
    const found = await call(device, 'POST', `/session/${sid}/element`, { strategy: 'xpath', selector: xpath });
    return (found.body.value as Record<string, string>)[W3C] as string;
  }

  it('a node that is not an editable field: 400 invalid element state quoting the text, nothing changes', async () => {
    const { device, sid } = await serving();
    device.setScreen('all_apps');
    const id = await elementBy(device, sid, "//*[@text='Calendar']");
    const reply = await call(device, 'POST', `/session/${sid}/element/${id}/value`, { text: 'abc', replace: false });
    expect(reply).toEqual({
      status: 400,
      body: {
        value: {
          error: 'invalid element state',
          message: "Cannot set the element to 'abc'. Did you interact with the correct element?",
          stacktrace: '',
        },
      },
    });
    expect(device.nodes().some((n) => n.text === 'Calendarabc' || n.text === 'abc')).toBe(false);
  });

  it('a Flutter field (Notes) refuses set-text until a tap gives it focus; its clear is a silent no-op until then', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_main');
    const id = await elementBy(device, sid, "//android.widget.EditText[@hint='Title']");
    expect((await call(device, 'GET', `/session/${sid}/element/${id}/attribute/focused`)).body.value).toBe('false');
    expect((await call(device, 'POST', `/session/${sid}/element/${id}/clear`, {})).status).toBe(200);
    const refused = await call(device, 'POST', `/session/${sid}/element/${id}/value`, { text: 'Milk', replace: false });
    expect(refused.status).toBe(400);
    expect(refused.body.value).toMatchObject({ error: 'invalid element state' });
    expect(
      device
        .log()
        .some((e) =>
          /ACTION_SET_TEXT refused by android.widget.EditText "Title" \(a Flutter field without focus\)/.test(e.detail),
        ),
    ).toBe(true);
    expect((await call(device, 'POST', `/session/${sid}/element/${id}/click`, {})).status).toBe(200);
    expect((await call(device, 'GET', `/session/${sid}/element/${id}/attribute/focused`)).body.value).toBe('true');
    expect(
      (await call(device, 'POST', `/session/${sid}/element/${id}/value`, { text: 'Milk', replace: false })).status,
    ).toBe(200);
    expect(device.nodes().find((n) => n.hint === 'Title')?.text).toBe('Milk');
  });

  it('a native EditText takes set-text without focus, as TextView does', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_accounts');
    const id = await elementBy(device, sid, '(//android.widget.EditText)[1]');
    expect(
      (await call(device, 'POST', `/session/${sid}/element/${id}/value`, { text: 'Ada', replace: false })).status,
    ).toBe(200);
    expect(device.nodes().find((n) => n.key === 'personal_name')?.text).toBe('Ada');
  });
});

describe('horizontal lists: the Calendar day strip', () => {
  const strip = (d: VirtualDevice): number => d.ui.current().scroll.get('day_strip') ?? 0;
  const schedule = (d: VirtualDevice): number => d.ui.current().scroll.get('schedule') ?? 0;
  const dayLeft = (d: VirtualDevice, day: number): number | undefined =>
    d.nodes().find((n) => n.text === `Dec ${day}`)?.bounds.left;
  const calendar = (): VirtualDevice => {
    const d = VirtualDevice.withDefaultScenario();
    d.setScreen('calendar_main');
    return d;
  };

  it('a slow sideways drag moves the strip by the drag minus the 8 dp touch slop, and the chips with it', () => {
    const d = calendar();
    expect(dayLeft(d, 14)).toBeUndefined();
    // 600 px leftwards in 2 s: 300 px/s, over the 131 px/s minimum fling velocity, so it coasts a little after the lift too.
    const stroke = straightStroke(900, 357, 300, 357, 2000);
    expect(d.ui.drag(stroke, 'test')).toBe(true);
    const travel = listTravel(stroke, 420, 'x');
    expect(strip(d)).toBe(travel.drag + travel.fling);
    expect(travel.drag).toBe(900 - stroke.samples.at(-1)!.x - 21);
    expect(dayLeft(d, 1)).toBeUndefined();
    expect(dayLeft(d, 3)).toBe(Math.max(0, 24 + 2 * 252 - strip(d)));
    expect(schedule(d)).toBe(0);
  });

  it('a fast sideways swipe flings on past the finger, like the vertical list', () => {
    const d = calendar();
    const stroke = straightStroke(900, 357, 300, 357, 150);
    const travel = listTravel(stroke, 420, 'x');
    expect(travel.fling).toBeGreaterThan(0);
    d.ui.drag(stroke, 'test');
    expect(strip(d)).toBe(Math.min(2448, travel.drag + travel.fling));
  });

  it('a drag under the touch slop moves nothing; at the end the strip stays put and says so', () => {
    const d = calendar();
    expect(d.ui.drag(straightStroke(540, 357, 525, 357, 500), 'test')).toBe(false);
    expect(strip(d)).toBe(0);
    // Right (the finger moving right) at the start: nothing before the first chip.
    expect(d.ui.drag(straightStroke(300, 357, 900, 357, 2000), 'test')).toBe(false);
    for (let i = 0; i < 10; i++) d.ui.drag(straightStroke(900, 357, 300, 357, 150), 'test');
    expect(strip(d)).toBe(2448);
    expect(dayLeft(d, 14)).toBe(24 + 13 * 252 - 2448);
    expect(d.ui.drag(straightStroke(900, 357, 300, 357, 2000), 'test')).toBe(false);
  });

  it('the axis decides who takes the drag: a vertical drag on the strip moves no list, one on the schedule moves only the schedule', () => {
    const d = calendar();
    expect(d.ui.drag(straightStroke(540, 440, 540, 260, 2000), 'test')).toBe(false);
    expect(d.log().at(-1)?.detail).toMatch(/over nothing that scrolls vertically/);
    expect(strip(d)).toBe(0);
    expect(d.ui.drag(straightStroke(540, 1400, 540, 700, 2000), 'test')).toBe(true);
    expect(schedule(d)).toBeGreaterThan(0);
    expect(strip(d)).toBe(0);
    // A sideways drag over the schedule: it does not scroll sideways, so nothing moves.
    const before = schedule(d);
    expect(d.ui.drag(straightStroke(900, 1000, 300, 1000, 2000), 'test')).toBe(false);
    expect(schedule(d)).toBe(before);
  });
});
