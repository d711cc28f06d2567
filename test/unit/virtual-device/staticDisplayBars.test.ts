/**
 * A screen imported from a dump whose window is smaller than the display (a launcher drawer: a
 * 2000x1128 window at rotation 1, the dump of a 2000x1200 tablet) gets its navigation bar where
 * the window manager puts it, below the window: the double's `dumpsys window` lays the bar outside
 * the app's bounds, the harness's summary answers no entry `under_navigation_bar`, and a tap on the
 * window's last row reaches the app. The dump is written here, not taken from ../shared.
 */
import { describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/index.js';
import { sh } from '../../../packages/virtual-device/test/unit/helpers.js';
import { parseDisplaySize, parseSystemBars } from '../../../src/infrastructure/adb/parsers.js';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { summariseScreen } from '../../../src/domain/summary/summary.js';

const attrs = (over: Record<string, string>): string =>
  Object.entries({
    index: '0',
    text: '',
    'resource-id': '',
    class: 'android.widget.FrameLayout',
    package: 'com.example.launcher',
    'content-desc': '',
    checkable: 'false',
    checked: 'false',
    clickable: 'false',
    enabled: 'true',
    focusable: 'false',
    focused: 'false',
    scrollable: 'false',
    'long-clickable': 'false',
    password: 'false',
    selected: 'false',
    ...over,
  })
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ');

/** Six rows of app icons down to the window's bottom edge, the last row ending at 1128. */
function drawer(extra = ''): string {
  const icons: string[] = [];
  for (let row = 0; row < 6; row++)
    for (let col = 0; col < 5; col++) {
      const top = 168 + row * 160;
      const left = 100 + col * 360;
      icons.push(
        `<node ${attrs({ index: String(col), text: `App ${row}-${col}`, class: 'android.widget.TextView', clickable: 'true', 'long-clickable': 'true', bounds: `[${left},${top}][${left + 300},${top + 160}]` })} />`,
      );
    }
  return (
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1">` +
    `<node ${attrs({ bounds: '[0,0][2000,1128]' })}>` +
    `<node ${attrs({ class: 'androidx.recyclerview.widget.RecyclerView', 'resource-id': 'com.example.launcher:id/apps_list', scrollable: 'true', bounds: '[0,168][2000,1128]' })}>${icons.join('')}</node>` +
    extra +
    '</node></hierarchy>'
  );
}

async function barsOf(device: VirtualDevice) {
  const window = (await sh(device, 'dumpsys window')).stdout;
  return { bars: parseSystemBars(window), display: parseDisplaySize(window) };
}

describe('a static screen whose window is smaller than the display', () => {
  it('lays the navigation bar below the window, so no entry is under it', async () => {
    const xml = drawer();
    const device = VirtualDevice.withStaticScreen(xml, { instrumentationStartupMs: 5 });
    expect(device.ui.displayRotation()).toBe(1);
    const { bars, display } = await barsOf(device);
    expect(display?.width).toBe(2000);
    expect(bars.navigation?.top).toBeGreaterThanOrEqual(1128);
    expect(bars.navigation?.bottom).toBe(display?.height);

    const summary = summariseScreen(parseDump(device.dumpXml()), {
      density: 240,
      window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: display, systemBars: bars },
    });
    expect(summary.actions.filter((a) => a.not_actionable !== undefined)).toEqual([]);
    expect(summary.layout_findings?.filter((f) => f.issue === 'under_navigation_bar') ?? []).toEqual([]);
    // All thirty icons are offered, the last row included.
    expect(summary.actions.filter((a) => /^App 5-/.test(a.text ?? a.label ?? '')).length).toBe(5);

    // A finger on the last row reaches the app, not System UI.
    expect((await sh(device, 'input tap 250 1100')).code).toBe(0);
    const tap = device.clicks().at(-1);
    expect(tap?.onSystemBar).toBeUndefined();
    expect(tap?.target?.description).toContain('App 5-0');
  });

  it('takes the bar where its own node says it starts', async () => {
    // System UI's bar window in the same dump: the bar starts at 1128 and the panel follows it.
    const bar = `<node ${attrs({ 'resource-id': 'com.android.systemui:id/navigation_bar_frame', package: 'com.android.systemui', bounds: '[0,1128][2000,1200]' })} />`;
    const device = VirtualDevice.withStaticScreen(drawer(bar), { instrumentationStartupMs: 5 });
    const { bars } = await barsOf(device);
    expect(bars.navigation?.top).toBe(1128);
  });

  it("keeps a bar the window draws under inside it (the decor's bar background in the window)", async () => {
    const background = `<node ${attrs({ 'resource-id': 'android:id/navigationBarBackground', bounds: '[0,1002][2000,1128]' })} />`;
    const device = VirtualDevice.withStaticScreen(drawer(background), { instrumentationStartupMs: 5 });
    const { bars, display } = await barsOf(device);
    expect(display).toEqual({ width: 2000, height: 1128 });
    expect(bars.navigation?.top).toBe(1002);
  });
});
