/**
 * The display turned by the UiAutomator2 server's SetOrientation (LANDSCAPE is ROTATION_270):
 * every place Android reports the rotation or the size says the same (docs/internals/device-quirks.md, "Rotation").
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../src/device/VirtualDevice.js';
import { flatten } from '../../src/device/uiTree.js';
import { sh, shBytes } from './helpers.js';

describe('rotation', () => {
  it('landscape swaps the logical size in the dump, the page source, dumpsys window and screencap, and keeps every node on screen', async () => {
    const d = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });
    d.setScreen('settings_home');
    d.ui.setRotation(3, 'test');
    expect(d.dumpXml()).toMatch(/<hierarchy rotation="3">/);
    expect(d.pageSource()).toMatch(/<hierarchy index="0" class="hierarchy" rotation="3" width="2400" height="1080">/);
    const window = (await sh(d, 'dumpsys window')).stdout;
    expect(window).toMatch(/cur=2400x1080 app=2400x954/);
    expect(window).toMatch(/rotation 3/);
    const png = PNG.sync.read(await shBytes(d, 'screencap -p'));
    expect([png.width, png.height]).toEqual([2400, 1080]);
    for (const e of flatten(d.ui.tree())) {
      expect(e.bounds.right, e.key).toBeLessThanOrEqual(2400);
      expect(e.bounds.bottom, e.key).toBeLessThanOrEqual(1080);
    }
    d.ui.setRotation(0, 'test');
    expect(d.dumpXml()).toMatch(/<hierarchy rotation="0">/);
    expect((await sh(d, 'dumpsys window')).stdout).toMatch(/cur=1080x2400/);
  });

  it('a landscape tablet dump whose window draws under its bar starts turned with its own bounds; turned to portrait, its nodes are laid out again inside the panel, and back', async () => {
    const node = (bounds: string, extra = '', children = '', id = ''): string =>
      `<node index="0" text="" resource-id="${id}" class="android.widget.FrameLayout" package="com.example.tab" content-desc="" checkable="false" checked="false" clickable="${extra === 'button'}" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${bounds}">${children}</node>`;
    const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1">${node('[0,0][1920,1200]', '', node('[1700,900][1900,1000]', 'button') + node('[0,1074][1920,1200]', '', '', 'android:id/navigationBarBackground'))}</hierarchy>`;
    const d = VirtualDevice.withStaticScreen(xml, { instrumentationStartupMs: 5 });
    expect(d.ui.displayRotation()).toBe(1);
    expect(d.pageSource()).toMatch(/rotation="1" width="1920" height="1200"/);
    expect(d.dumpXml()).toContain('bounds="[1700,900][1900,1000]"');
    expect((await sh(d, 'dumpsys window')).stdout).toMatch(/cur=1920x1200/);
    d.setRotation(0);
    expect(d.pageSource()).toMatch(/rotation="0" width="1200" height="1920"/);
    expect(PNG.sync.read(await shBytes(d, 'screencap -p')).width).toBe(1200);
    for (const e of flatten(d.ui.tree())) {
      expect(e.bounds.right, e.key).toBeLessThanOrEqual(1200);
      expect(e.bounds.bottom, e.key).toBeLessThanOrEqual(1920);
    }
    d.setRotation(3);
    expect(d.dumpXml()).toContain('bounds="[1700,900][1900,1000]"');
  });
});
