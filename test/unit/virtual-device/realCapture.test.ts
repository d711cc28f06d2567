/**
 * A real capture served with its dump (`--screen DUMP.xml --screenshot SHOT.png`,
 * docs/internals/virtual-device.md): the capture's bytes while its screen shows, the device's own
 * drawing once it no longer shows what is there (locked), and a capture of another size refused.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseVirtualDeviceArgs } from '../../../packages/virtual-device/src/cli.js';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/index.js';

const XML =
  `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
  `<node index="0" text="Hello" resource-id="" class="android.widget.TextView" package="com.example.shot" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]" />` +
  `</hierarchy>`;

function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(7);
  return PNG.sync.write(image);
}

describe('a static screen with a real capture', () => {
  it('answers the capture as it is while its screen shows, and its own drawing behind the lock screen', () => {
    const shot = png(1080, 2400);
    const device = VirtualDevice.withStaticScreen(XML, { screenshotPng: shot });
    expect(device.screenshotPng().equals(shot)).toBe(true);
    device.setLocked(true);
    expect(device.screenshotPng().equals(shot)).toBe(false);
  });

  it('refuses a capture of another size than the dump’s display, saying which', () => {
    expect(() => VirtualDevice.withStaticScreen(XML, { screenshotPng: png(1080, 2340) })).toThrow(
      /1080x2340 but the dump's display is 1080x2400/,
    );
    expect(() => VirtualDevice.withStaticScreen(XML, { screenshotPng: Buffer.from('not a png') })).toThrow(/not a PNG/);
  });

  it('the CLI takes --screenshot only with --screen', () => {
    expect(parseVirtualDeviceArgs(['--screen', 'a.xml', '--screenshot', 'a.png'])?.source).toEqual({
      kind: 'screen',
      file: 'a.xml',
      screenshot: 'a.png',
    });
    expect(() => parseVirtualDeviceArgs(['--screenshot', 'a.png'])).toThrow(/--screenshot needs --screen/);
  });
});
