/**
 * Where the tree is silent (docs/reference/summary.md, "Visual refs"): the rules that decide which
 * parts of a screen OCR reads, and that a screen whose tree names everything gives none.
 */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import { unexposedRegions, MAX_UNEXPOSED_REGIONS } from '../../../../src/domain/visual/unexposed.js';
import { screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

const SCREEN = { width: 1080, height: 2400 };
const regionsOf = (children: NodeSpec[]) => unexposedRegions(parseDump(uiautomatorDump([screen(children)])), SCREEN);

describe('unexposedRegions', () => {
  it('a screen of named controls and texts has none', () => {
    expect(
      regionsOf([
        { cls: 'android.widget.TextView', text: 'Settings', bounds: '[0,63][1080,200]' },
        { cls: 'android.widget.Button', text: 'Save', clickable: true, bounds: '[40,300][1040,500]' },
        { cls: 'android.widget.ImageView', bounds: '[0,600][1080,1400]' },
        { cls: 'android.widget.ImageButton', desc: 'Back', clickable: true, bounds: '[0,63][126,189]' },
      ]),
    ).toEqual([]);
  });

  it('a childless SurfaceView, TextureView or GLSurfaceView is a surface', () => {
    for (const cls of ['android.view.SurfaceView', 'android.view.TextureView', 'android.opengl.GLSurfaceView']) {
      expect(regionsOf([{ cls, bounds: '[0,63][1080,2274]' }]), cls).toEqual([
        { bounds: { left: 0, top: 63, right: 1080, bottom: 2274 }, reason: 'surface' },
      ]);
    }
  });

  it('a WebView is read only when it exposes no child', () => {
    expect(regionsOf([{ cls: 'android.webkit.WebView', bounds: '[0,200][1080,2000]' }])).toEqual([
      { bounds: { left: 0, top: 200, right: 1080, bottom: 2000 }, reason: 'empty_web_view' },
    ]);
    expect(
      regionsOf([
        {
          cls: 'android.webkit.WebView',
          bounds: '[0,200][1080,2000]',
          children: [{ cls: 'android.widget.TextView', text: 'Article', bounds: '[0,200][1080,300]' }],
        },
      ]),
    ).toEqual([]);
  });

  it('a large clickable with no label anywhere inside is read; a small one (an icon) or a labelled one is not', () => {
    const big = '[0,300][1080,900]';
    expect(regionsOf([{ cls: 'android.view.ViewGroup', clickable: true, bounds: big }])).toEqual([
      { bounds: { left: 0, top: 300, right: 1080, bottom: 900 }, reason: 'unlabelled_clickable' },
    ]);
    // A resource id names it for a selector, not for a reader: still unlabelled.
    expect(
      regionsOf([{ cls: 'android.view.ViewGroup', id: 'com.example.app:id/card', clickable: true, bounds: big }]),
    ).toHaveLength(1);
    expect(regionsOf([{ cls: 'android.view.ViewGroup', clickable: true, bounds: '[0,300][200,500]' }])).toEqual([]);
    expect(
      regionsOf([
        {
          cls: 'android.view.ViewGroup',
          clickable: true,
          bounds: big,
          children: [{ cls: 'android.widget.TextView', text: 'Play', bounds: '[0,300][500,400]' }],
        },
      ]),
    ).toEqual([]);
  });

  it('a region inside one already found is not read twice; regions are cut to the screen and capped', () => {
    expect(
      regionsOf([
        {
          cls: 'android.view.ViewGroup',
          clickable: true,
          bounds: '[0,0][1080,2400]',
          children: [{ cls: 'android.view.SurfaceView', bounds: '[0,300][1080,900]' }],
        },
      ]),
    ).toEqual([{ bounds: { left: 0, top: 0, right: 1080, bottom: 2400 }, reason: 'unlabelled_clickable' }]);
    expect(regionsOf([{ cls: 'android.view.SurfaceView', bounds: '[-100,2000][1200,2600]' }])).toEqual([
      { bounds: { left: 0, top: 2000, right: 1080, bottom: 2400 }, reason: 'surface' },
    ]);
    const many = Array.from({ length: 12 }, (_, i) => ({
      cls: 'android.view.SurfaceView',
      bounds: `[0,${100 + i * 150}][1080,${200 + i * 150}]`,
    }));
    expect(regionsOf(many)).toHaveLength(MAX_UNEXPOSED_REGIONS);
  });
});
