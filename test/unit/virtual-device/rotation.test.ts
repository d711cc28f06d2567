/**
 * The display turned by the UiAutomator2 server's SetOrientation (LANDSCAPE is ROTATION_270):
 * every place Android reports the rotation or the size says the same (docs/device-quirks.md, "Rotation").
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../../src/virtual-device/device/VirtualDevice.js';
import { flatten } from '../../../src/virtual-device/device/uiTree.js';
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
    const png = PNG.sync.read(await shBytes(d, "screencap -p"));
    expect([png.width, png.height]).toEqual([2400, 1080]);
    for (const e of flatten(d.ui.tree())) {
      expect(e.bounds.right, e.key).toBeLessThanOrEqual(2400);
      expect(e.bounds.bottom, e.key).toBeLessThanOrEqual(1080);
    }
    d.ui.setRotation(0, 'test');
    expect(d.dumpXml()).toMatch(/<hierarchy rotation="0">/);
    expect((await sh(d, 'dumpsys window')).stdout).toMatch(/cur=1080x2400/);
  });
});
