import { describe, expect, it } from 'vitest';
import { buildHarness, type TestHarness } from '../../../support/fakes/harness.js';
import { settingsAppsDump } from '../../../support/fakes/screens.js';
import { appiumSource, screen } from '../../domain/dumpBuilder.js';
import { offer } from './support.js';

describe('actions: ui_scroll', () => {
  it('ui_scroll runs over the list, clear of the system bars, creeps slower than a fling and holds before the lift; moved says whether the content changed', async () => {
    const h = buildHarness();
    const still = await h.envelope('ui_scroll', { direction: 'down', observe: false });
    // The list did not move (the fake's page source stays the same): said so.
    expect(still.data).toEqual({ direction: 'down', moved: false, foreground_package: 'com.android.settings' });
    expect(still.evidence?.artifact_id).toMatch(/-ui-scroll\.png$/);
    const path = h.automation.sessions[0]?.swipes[0];
    // The list is [0,440][1080,2400]; 56 dp at 420 dpi (147 px) stay clear of each screen edge.
    expect(path).toEqual({
      start: { x: 540, y: 2071 },
      moves: [
        { to: { x: 540, y: 632 }, durationMs: 400 },
        { to: { x: 540, y: 621 }, durationMs: 200 },
      ],
      holdMs: 100,
    });
    // Under 50 dp/s (131 px/s at 420 dpi) for longer than the 100 ms velocity horizon, then still for more than 40 ms.
    const creep = path!.moves[1]!;
    expect((Math.abs(creep.to.y - path!.moves[0]!.to.y) / creep.durationMs) * 1000).toBeLessThan((50 * 420) / 160);
    expect(creep.durationMs).toBeGreaterThan(100);
    expect(path!.holdMs).toBeGreaterThan(40);

    h.automation.onSwipe = () => {
      h.automation.source = settingsAppsDump().replace('[0,440][1080,600]', '[0,440][1080,500]');
    };
    const up = await h.envelope('ui_scroll', { direction: 'up', observe: false });
    expect(up.data).toEqual({ direction: 'up', moved: true, foreground_package: 'com.android.settings' });
    expect(h.automation.sessions[1]?.swipes[0]?.start).toEqual({ x: 540, y: 621 });
    expect(h.automation.sessions[1]?.swipes[0]?.moves.at(-1)?.to).toEqual({ x: 540, y: 2071 });
  });

  describe('ui_scroll in four directions and in a named container', () => {
    const rv = 'androidx.recyclerview.widget.RecyclerView';
    const row = (t: string, top: number, height: number) => ({
      cls: 'android.widget.TextView',
      text: t,
      bounds: `[0,${top}][1080,${top + height}]`,
    });
    const calendarSource = appiumSource([
      screen([
        {
          cls: rv,
          id: 'com.example:id/day_strip',
          scrollable: true,
          bounds: '[0,252][1080,462]',
          children: [0, 1, 2, 3, 4].map((i) => ({
            cls: 'android.widget.TextView',
            text: `Dec ${i + 1}`,
            clickable: true,
            bounds: `[${24 + i * 252},273][${Math.min(1080, 252 + i * 252)},441]`,
          })),
        },
        {
          cls: rv,
          id: 'com.example:id/schedule',
          scrollable: true,
          bounds: '[0,580][1080,1500]',
          children: [0, 1, 2, 3].map((i) => row(`Event ${i}`, 580 + i * 200, 200)),
        },
        { cls: 'android.widget.TextView', text: 'Tasks', bounds: '[63,1520][1017,1590]' },
        {
          cls: rv,
          id: 'com.example:id/task_list',
          scrollable: true,
          bounds: '[0,1600][1080,2274]',
          children: [0, 1, 2, 3].map((i) => row(`Task ${i}`, 1600 + i * 150, 150)),
        },
      ]),
    ]);
    const calendar = (): TestHarness => {
      const h = buildHarness();
      h.automation.source = calendarSource;
      return h;
    };
    /** The fake Appium finds `selector` as an element of this class and bounds. */
    const place = (
      h: TestHarness,
      selector: Record<string, unknown>,
      label: string,
      className: string,
      bounds: string,
    ): void => {
      offer(h, selector, label);
      h.automation.places.set(label, { className, bounds });
    };
    const xsOf = (h: TestHarness): number[] => {
      const path = h.automation.sessions[0]!.swipes[0]!;
      return [path.start.x, ...path.moves.map((m) => m.to.x)];
    };

    it('right without a selector swipes leftwards over the one sideways container, clear of the side edges', async () => {
      const h = calendar();
      const envelope = await h.envelope('ui_scroll', { direction: 'right', observe: false });
      expect(envelope.data).toEqual({ direction: 'right', moved: false, foreground_package: 'com.android.settings' });
      const path = h.automation.sessions[0]!.swipes[0]!;
      expect(path.start.y).toBe(357);
      for (const x of xsOf(h)) expect(x >= 147 && x < 933, `x ${x}`).toBe(true);
      expect(path.start.x).toBeGreaterThan(path.moves.at(-1)!.to.x);
    });

    it('right on a screen where nothing scrolls sideways swipes nothing and says what does scroll', async () => {
      const h = buildHarness();
      const envelope = await h.envelope('ui_scroll', { direction: 'right', observe: false });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toMatch(
        /^Nothing on this screen scrolls sideways, so ui_scroll right did not swipe\. Scrollable containers here: .*\(vertical, bounds \[/,
      );
      expect(envelope.evidence?.artifact_id).toMatch(/-failure-ui-scroll\.png$/);
      expect(h.automation.sessions[0]!.swipes).toEqual([]);
    });

    it('a named container is swiped over although it is not the largest, and the answer echoes it', async () => {
      const h = calendar();
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      h.automation.onSwipe = () => {
        h.automation.source = calendarSource.replace('Task 0', 'Task 4');
      };
      const envelope = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(envelope.data).toEqual({
        direction: 'down',
        target: { resource_id: 'com.example:id/task_list' },
        moved: true,
        foreground_package: 'com.android.settings',
      });
      const path = h.automation.sessions[0]!.swipes[0]!;
      for (const y of [path.start.y, ...path.moves.map((m) => m.to.y)])
        expect(y >= 1600 && y < 2253, `y ${y}`).toBe(true);
    });

    it('moved compares the named container only: a change elsewhere is not a move', async () => {
      const h = calendar();
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      h.automation.onSwipe = () => {
        h.automation.source = calendarSource.replace('Event 0', 'Event 9');
      };
      const envelope = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(envelope.data.moved).toBe(false);
    });

    it('a row names the list that holds it', async () => {
      const h = calendar();
      place(h, { text: 'Task 1' }, 'task1', 'android.widget.TextView', '[0,1750][1080,1900]');
      await h.envelope('ui_scroll', { direction: 'up', selector: { text: 'Task 1' }, observe: false });
      const path = h.automation.sessions[0]!.swipes[0]!;
      expect(path.start.y).toBeGreaterThanOrEqual(1600);
    });

    it('an element outside every scrollable is refused, naming its class and the containers, and nothing is swiped', async () => {
      const h = calendar();
      place(h, { text: 'Tasks' }, 'tasks-title', 'android.widget.TextView', '[63,1520][1017,1590]');
      const envelope = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { text: 'Tasks' },
        observe: false,
      });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toContain(
        "The element matched by text 'Tasks' is a android.widget.TextView 'Tasks': it does not scroll and no container around it does, so nothing was swiped.",
      );
      expect(envelope.error?.message).toContain(
        '{"resource_id":"com.example:id/day_strip"} (horizontal, bounds [0,252,1080,210])',
      );
      expect(h.automation.sessions[0]!.swipes).toEqual([]);
    });

    it('a vertical container asked to scroll right is refused with the directions it takes', async () => {
      const h = calendar();
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      const envelope = await h.envelope('ui_scroll', {
        direction: 'right',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toMatch(
        /is in a vertical container \(androidx\.recyclerview\.widget\.RecyclerView 'com\.example:id\/task_list'\), which cannot scroll right; nothing was swiped\. Send up or down for it/,
      );
      expect(h.automation.sessions[0]!.swipes).toEqual([]);
    });

    it('a named container hidden under the keyboard is refused; one the driver does not find is not-found as for ui_tap', async () => {
      const h = calendar();
      h.device.ime = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      const hidden = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(hidden.error?.message).toMatch(/shows too little of itself above the keyboard/);
      const missing = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { text: 'Nowhere' },
        observe: false,
      });
      expect(missing.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(missing.error?.message).toMatch(/^No visible element matched text 'Nowhere' before timeout\./);
      expect(h.automation.sessions.flatMap((s) => s.swipes)).toEqual([]);
    });
  });

  it('ui_scroll with the keyboard open starts and ends above it', async () => {
    const h = buildHarness();
    h.device.ime = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
    await h.envelope('ui_scroll', { direction: 'down', observe: false });
    const path = h.automation.sessions[0]!.swipes[0]!;
    const ys = [path.start.y, ...path.moves.map((m) => m.to.y)];
    for (const y of ys) expect(y).toBeLessThan(1517);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(700);
  });
});
