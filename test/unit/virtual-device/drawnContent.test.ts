/**
 * Content a view draws in its own pixels (scenario `drawn`, docs/internals/virtual-device.md): absent
 * from the dump (a SurfaceView has no children), painted in the screenshot, and a touch inside a
 * drawn item runs it whatever the view's clickable flag; a touch beside every item does nothing.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/index.js';
import { sh, shBytes } from '../../../packages/virtual-device/test/unit/helpers.js';

async function game(): Promise<VirtualDevice> {
  const d = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });
  await sh(d, 'am start -W -n com.example.arcade/.GameActivity');
  return d;
}

describe('drawn content', () => {
  it('the dump shows one childless SurfaceView and none of the drawn texts', async () => {
    const d = await game();
    const dump = (await sh(d, 'uiautomator dump /dev/tty')).stdout;
    expect(dump).toMatch(/class="android\.view\.SurfaceView"[^>]*\/>/);
    for (const text of ['PLAY', 'OPTIONS', 'QUIT', 'STAR RUNNER']) expect(dump).not.toContain(text);
  });

  it('the screenshot paints the items: the PLAY box differs from the backdrop beside it', async () => {
    const d = await game();
    const img = PNG.sync.read(await shBytes(d, 'screencap -p'));
    const at = (x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
    expect(at(260, 920)).not.toEqual(at(100, 920));
  });

  it('a touch inside a drawn item runs it and the click record names it; beside every item nothing happens', async () => {
    const d = await game();
    await sh(d, 'input tap 100 1000');
    expect(d.currentScreen().screenId).toBe('arcade_menu');
    expect(d.clicks().at(-1)?.target?.description).toContain('drawn nothing');
    await sh(d, 'input tap 500 1000');
    expect(d.clicks().at(-1)?.target?.description).toContain('drawn "PLAY"');
    expect(d.currentScreen().screenId).toBe('arcade_level');
  });

  it("a WebView's article: one childless WebView in the dump, a white page with dark text in the screenshot, each button its own", async () => {
    const d = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });
    await sh(d, 'am start -W -n com.example.news/.ArticleActivity');
    const dump = (await sh(d, 'uiautomator dump /dev/tty')).stdout;
    expect(dump).toMatch(/class="android\.webkit\.WebView"[^>]*\/>/);
    expect(dump).toContain('text="Daily Planet"');
    for (const text of ['Subscribe', 'Share', 'Read the full story', 'riverside']) expect(dump).not.toContain(text);
    const img = PNG.sync.read(await shBytes(d, 'screencap -p'));
    const at = (x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3)];
    // The page is white beside the text; the button is filled.
    expect(at(1050, 1500)).toEqual([255, 255, 255]);
    expect(at(60, 880)).not.toEqual([255, 255, 255]);
    await sh(d, 'input tap 800 935');
    expect(d.clicks().at(-1)?.target?.description).toContain('drawn "Share"');
    await sh(d, 'input tap 540 935');
    expect(d.clicks().at(-1)?.target?.description).toContain('drawn nothing');
    const logcat = (await sh(d, 'logcat -d')).stdout;
    expect(logcat).toContain('"button: share"');
    expect(logcat).not.toContain('"button: subscribe"');
  });
});
