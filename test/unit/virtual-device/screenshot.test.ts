/**
 * The virtual device's screenshots show the screen's real text (bundled Roboto,
 * tofu for scripts it lacks), the widgets' state and the keyboard, and still keep the old
 * guarantees: a valid PNG of the display's size, different pixels for a different screen, the same
 * bytes for the same screen, one flat colour under the blank-screenshot fault.
 */
import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { BUILT_IN_DISPLAY, VirtualDevice } from '../../../packages/virtual-device/src/device/index.js';
import type { UiElement } from '../../../packages/virtual-device/src/device/index.js';
import { COLOURS } from '../../../packages/virtual-device/src/device/render/theme.js';
import { sh, shBytes } from '../../../packages/virtual-device/test/unit/helpers.js';

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

const newDevice = (): VirtualDevice => VirtualDevice.withDefaultScenario();
const capture = async (d: VirtualDevice): Promise<PNG> => PNG.sync.read(await shBytes(d, 'screencap -p'));

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

/** Pixels inside `box` within `tolerance` of `colour` on every channel (the solid cores of glyphs and shapes). */
function countColour(img: PNG, box: Box, colour: string, tolerance = 6): number {
  const [r, g, b] = rgb(colour);
  let n = 0;
  for (let y = Math.max(0, box.top); y < Math.min(img.height, box.bottom); y++) {
    for (let x = Math.max(0, box.left); x < Math.min(img.width, box.right); x++) {
      const i = (y * img.width + x) * 4;
      if (
        Math.abs((img.data[i] ?? 0) - r) <= tolerance &&
        Math.abs((img.data[i + 1] ?? 0) - g) <= tolerance &&
        Math.abs((img.data[i + 2] ?? 0) - b) <= tolerance
      )
        n++;
    }
  }
  return n;
}

/** Columns of `box` that hold at least one pixel of `colour`: how far a line of text reaches. */
function inkColumns(img: PNG, box: Box, colour: string): number {
  let columns = 0;
  for (let x = box.left; x < box.right; x++)
    if (countColour(img, { ...box, left: x, right: x + 1 }, colour) > 0) columns++;
  return columns;
}

function samePixels(a: PNG, b: PNG, box: Box): boolean {
  for (let y = box.top; y < box.bottom; y++) {
    const from = (y * a.width + box.left) * 4;
    const to = (y * a.width + box.right) * 4;
    if (!a.data.subarray(from, to).equals(b.data.subarray(from, to))) return false;
  }
  return true;
}

function node(d: VirtualDevice, match: (e: UiElement) => boolean): UiElement {
  const hit = d.nodes().find(match);
  if (!hit) throw new Error('node not on screen');
  return hit;
}

const TEXT_BOX: Box = { left: 63, top: 300, right: 1017, bottom: 420 };

/** A static screen holding one widget at TEXT_BOX. */
function oneNode(cls: string, attrs: { text?: string; password?: boolean; checked?: boolean } = {}): VirtualDevice {
  const a = (v: string): string => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const xml =
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
    `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.shot" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">` +
    `<node index="0" text="${a(attrs.text ?? '')}" resource-id="" class="${cls}" package="com.example.shot" content-desc="" checkable="${attrs.checked !== undefined}" checked="${attrs.checked ?? false}" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="${attrs.password ?? false}" selected="false" bounds="[${TEXT_BOX.left},${TEXT_BOX.top}][${TEXT_BOX.right},${TEXT_BOX.bottom}]" />` +
    `</node></hierarchy>`;
  return VirtualDevice.withStaticScreen(xml);
}

const render = (d: VirtualDevice): PNG => PNG.sync.read(d.screenshotPng());

describe('virtual device screenshots', () => {
  it('are valid PNGs of the captured display size, which the harness reads and finds not blank', async () => {
    const d = newDevice();
    const bytes = await shBytes(d, 'screencap -p');
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const png = PNG.sync.read(bytes); // checks every chunk's CRC and the zlib stream
    expect([png.width, png.height]).toEqual([1080, 2400]);
    expect(new PngImageTools().inspect(bytes)).toEqual({ width: 1080, height: 2400, uniform: false });

    d.setDisplays([{ ...BUILT_IN_DISPLAY, width: 720, height: 1600 }]);
    const small = await shBytes(d, 'screencap -p');
    expect([PNG.sync.read(small).width, PNG.sync.read(small).height]).toEqual([720, 1600]);

    d.resetTraits();
    d.injectFault({ kind: 'blank-screenshot' });
    expect(new PngImageTools().inspect(await shBytes(d, 'screencap -p')).uniform).toBe(true);
  });

  it('draw a label as text: ink of the text colour inside its bounds, none for an empty label, more for a longer text', () => {
    const empty = render(oneNode('android.widget.TextView', { text: '' }));
    const short = render(oneNode('android.widget.TextView', { text: 'Wi-Fi' }));
    const long = render(oneNode('android.widget.TextView', { text: 'Network & internet' }));
    expect(countColour(empty, TEXT_BOX, COLOURS.onSurface)).toBe(0);
    expect(countColour(short, TEXT_BOX, COLOURS.onSurface)).toBeGreaterThan(200);
    expect(countColour(long, TEXT_BOX, COLOURS.onSurface)).toBeGreaterThan(
      2 * countColour(short, TEXT_BOX, COLOURS.onSurface),
    );
    // Left-aligned text: the longer string reaches further right, and neither leaves the node.
    expect(inkColumns(long, TEXT_BOX, COLOURS.onSurface)).toBeGreaterThan(
      2 * inkColumns(short, TEXT_BOX, COLOURS.onSurface),
    );
    const outside: Box = { left: 0, top: TEXT_BOX.bottom, right: 1080, bottom: TEXT_BOX.bottom + 200 };
    expect(countColour(long, outside, COLOURS.onSurface)).toBe(0);
    // Different words, different pixels.
    expect(
      samePixels(
        render(oneNode('android.widget.TextView', { text: 'Apps' })),
        render(oneNode('android.widget.TextView', { text: 'Apes' })),
        TEXT_BOX,
      ),
    ).toBe(false);
  });

  it('change when "wifi" is typed into the search field: the hint goes, the typed text appears inside the field', async () => {
    const d = newDevice();
    d.setScreen('settings_search');
    const field = node(d, (e) => e.hint === 'Search settings').bounds;
    const before = await capture(d);
    expect((await sh(d, 'input text wifi')).code).toBe(0);
    expect(node(d, (e) => e.hint === 'Search settings').text).toBe('wifi');
    const after = await capture(d);
    expect(samePixels(before, after, field)).toBe(false);
    // The hint is drawn in the secondary text colour, typed text in the primary one (a few anti-aliased
    // edge pixels of one can come close to the other).
    const hintBefore = countColour(before, field, COLOURS.onSurfaceVariant);
    const typedAfter = countColour(after, field, COLOURS.onSurface);
    expect(hintBefore).toBeGreaterThan(100);
    expect(countColour(before, field, COLOURS.onSurface)).toBeLessThan(hintBefore / 20);
    expect(typedAfter).toBeGreaterThan(100);
    expect(countColour(after, field, COLOURS.onSurfaceVariant)).toBeLessThan(hintBefore / 20);
  });

  it("show a password field's content as bullets, never as its text", () => {
    const secret = render(oneNode('android.widget.EditText', { text: 'hunter2', password: true }));
    const bullets = render(oneNode('android.widget.EditText', { text: '•••••••' }));
    const plain = render(oneNode('android.widget.EditText', { text: 'hunter2' }));
    expect(samePixels(secret, bullets, TEXT_BOX)).toBe(true);
    expect(samePixels(secret, plain, TEXT_BOX)).toBe(false);
  });

  it("never let a password's characters show elsewhere (an icon next to the field takes no letter from it)", () => {
    const screen = (secret: string): VirtualDevice =>
      VirtualDevice.withStaticScreen(
        `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
          `<node index="0" text="" resource-id="" class="android.widget.LinearLayout" package="com.example.shot" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,300][1080,460]">` +
          `<node index="0" text="" resource-id="" class="android.widget.ImageView" package="com.example.shot" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[40,320][160,440]" />` +
          `<node index="1" text="${secret}" resource-id="" class="android.widget.EditText" package="com.example.shot" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="true" selected="false" bounds="[200,320][1040,440]" />` +
          `</node></hierarchy>`,
      );
    expect(
      samePixels(render(screen('hunter2')), render(screen('xunter2')), { left: 0, top: 300, right: 1080, bottom: 460 }),
    ).toBe(true);
  });

  it('draw characters the font lacks as the same visible box on every machine (no installed font is used)', () => {
    const hanA = render(oneNode('android.widget.TextView', { text: '中' }));
    const hanB = render(oneNode('android.widget.TextView', { text: '文' }));
    // Arabic: many machines (this one too) have DejaVu Sans, which has it; the capture must not use it.
    const arabicA = render(oneNode('android.widget.TextView', { text: 'ب' }));
    const arabicB = render(oneNode('android.widget.TextView', { text: 'ع' }));
    expect(countColour(hanA, TEXT_BOX, COLOURS.onSurface)).toBeGreaterThan(20);
    expect(samePixels(hanA, hanB, TEXT_BOX)).toBe(true);
    expect(samePixels(arabicA, arabicB, TEXT_BOX)).toBe(true);
    expect(samePixels(arabicA, hanA, TEXT_BOX)).toBe(true);
    expect(
      samePixels(
        render(oneNode('android.widget.TextView', { text: 'A' })),
        render(oneNode('android.widget.TextView', { text: 'B' })),
        TEXT_BOX,
      ),
    ).toBe(false);
  });

  it('give the same bytes for the same screen, on a fresh device and after going away and back', async () => {
    const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
    const a = newDevice();
    const b = newDevice();
    await sh(a, 'am start -n com.android.settings/.Settings');
    await sh(b, 'am start -n com.android.settings/.Settings');
    const first = sha(await shBytes(a, 'screencap -p'));
    expect(sha(await shBytes(b, 'screencap -p'))).toBe(first);
    await sh(a, 'input keyevent KEYCODE_HOME');
    expect(sha(await shBytes(a, 'screencap -p'))).not.toBe(first);
    await sh(a, 'am start -n com.android.settings/.Settings');
    expect(sha(await shBytes(a, 'screencap -p'))).toBe(first);
  });

  it('show the keyboard while the IME is open, and not after BACK hides it', async () => {
    const d = newDevice();
    d.setScreen('settings_search');
    const ime: Box = { left: 0, top: 1517, right: 1080, bottom: 2400 };
    expect(d.imeVisible()).toBe(true);
    const open = await capture(d);
    await sh(d, 'input keyevent KEYCODE_BACK');
    expect(d.imeVisible()).toBe(false);
    const closed = await capture(d);
    // The white keys (26 letters and more) on the keyboard's grey.
    expect(countColour(open, ime, COLOURS.key, 0)).toBeGreaterThan(26 * 5000);
    expect(countColour(open, ime, COLOURS.keyboard, 2)).toBeGreaterThan(50_000);
    expect(countColour(closed, ime, COLOURS.keyboard, 2)).toBeLessThan(1000);
    expect(countColour(closed, ime, COLOURS.key, 0)).toBeLessThan(1000);
  });

  it("show a switch's checked state, and its change when the row is tapped", async () => {
    const d = newDevice();
    d.setScreen('settings_network');
    const sw = node(d, (e) => e.resourceId === 'android:id/switch_widget');
    expect(sw.checked).toBe(true);
    const on = await capture(d);
    const row = node(d, (e) => e.key === 'wifi_row').bounds;
    await sh(d, `input tap ${(row.left + row.right) >> 1} ${(row.top + row.bottom) >> 1}`);
    expect(node(d, (e) => e.resourceId === 'android:id/switch_widget').checked).toBe(false);
    const off = await capture(d);
    expect(countColour(on, sw.bounds, COLOURS.primary)).toBeGreaterThan(1000);
    expect(countColour(off, sw.bounds, COLOURS.primary)).toBe(0);
    expect(countColour(off, sw.bounds, COLOURS.outline)).toBeGreaterThan(100);
  });

  it('honour the scroll position: rows that scrolled in are drawn with their text, a row at the edge is cut', async () => {
    const d = newDevice();
    d.setScreen('all_apps');
    expect(d.nodes().some((e) => e.text === 'Maps')).toBe(false);
    const top = await capture(d);
    // A slow swipe (2 s): a drag without a fling, so the list stops where the finger left it.
    await sh(d, 'input swipe 540 2000 540 800 2000');
    const maps = node(d, (e) => e.text === 'Maps').bounds;
    const scrolled = await capture(d);
    expect(samePixels(top, scrolled, maps)).toBe(false);
    expect(countColour(scrolled, maps, COLOURS.onSurface)).toBeGreaterThan(200);
    // The last row shows only its top: nothing of it is drawn below the list.
    const list = node(d, (e) => e.resourceId === 'com.android.settings:id/apps_list').bounds;
    const edge = node(d, (e) => e.text !== '' && e.fullBounds.top < list.bottom && e.fullBounds.bottom > list.bottom);
    expect(edge.bounds.bottom).toBeLessThan(edge.fullBounds.bottom);
    expect(countColour(scrolled, { ...edge.fullBounds, top: list.bottom }, COLOURS.onSurface)).toBe(0);
  });
});

/**
 * Real screens lay controls out in their own dp: a 160 or 240 dpi tablet's switch, radio button or
 * icon is smaller than this renderer's 420 dpi margins. `screencap` never fails because of what
 * the screen shows, so no size may make the drawing fail.
 */
describe('virtual device screenshots of controls of every size', () => {
  const CLASSES = [
    'android.widget.Switch',
    'androidx.appcompat.widget.SwitchCompat',
    'android.widget.ToggleButton',
    'android.widget.CheckBox',
    'android.widget.RadioButton',
    'android.widget.CheckedTextView',
    'android.widget.ImageButton',
    'android.widget.Button',
    'android.widget.ImageView',
    'android.widget.TextView',
    'android.widget.EditText',
    'android.view.View',
  ];
  const SIDES = [1, 2, 3, 5, 8, 12, 17, 24, 33, 48, 64, 90, 120, 150, 189, 240, 400];

  it('draws each widget kind at every width and height from 1 px up, as a PNG of the display', () => {
    const a = (v: string): string => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    for (const cls of CLASSES) {
      let nodes = '';
      let x = 0;
      let y = 100;
      for (const w of SIDES) {
        for (const h of SIDES) {
          if (x + w > 1080) {
            x = 0;
            y += 410;
          }
          nodes +=
            `<node index="0" text="${a(cls.endsWith('View') ? 'Tab 1 of 3' : 'On')}" resource-id="" class="${cls}" package="com.example.sizes" content-desc="${h % 2 ? 'Tab 2 of 3' : ''}" ` +
            `checkable="true" checked="${w % 2 === 0}" clickable="true" enabled="true" focusable="true" focused="${h === 48}" scrollable="false" long-clickable="false" password="false" selected="${w === 48}" bounds="[${x},${y}][${x + w},${y + h}]" />`;
          x += w;
        }
      }
      const xml =
        `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
        `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.sizes" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">` +
        `${nodes}</node></hierarchy>`;
      let png: PNG | null = null;
      expect(() => (png = render(VirtualDevice.withStaticScreen(xml))), cls).not.toThrow();
      expect(png!.width, cls).toBe(1080);
    }
  });
});
