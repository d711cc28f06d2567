/**
 * A game whose every control is drawn into a SurfaceView: the accessibility tree holds one childless
 * node, and only the screenshot shows the buttons. SurfaceView extends View, not ViewGroup (AOSP
 * frameworks/base/core/java/android/view/SurfaceView.java), so it can have no child views, and what
 * the game renders into its surface never becomes an AccessibilityNodeInfo: a dump of a Unity or
 * libGDX game shows exactly this. The screens let the harness's visual refs be tested on real pixels.
 */
import { appWindow, node } from './builders.js';
import type { DrawnSpec, PackageSpec, ScreenSpec } from './model.js';

export const ARCADE = 'com.example.arcade';
const SURFACE_VIEW = 'android.view.SurfaceView';
/** The surface fills the activity's content, as a game's view does. */
const SURFACE_BOUNDS = [0, 63, 1080, 2274] as const;

/** A screen of the game: its one surface, with what the game draws into it. */
function gameScreen(id: string, drawn: readonly DrawnSpec[]): ScreenSpec {
  return {
    id,
    package: ARCADE,
    activity: '.GameActivity',
    root: appWindow([
      node(SURFACE_VIEW, SURFACE_BOUNDS, { resourceId: `${ARCADE}:id/game_surface`, focusable: true, drawn }),
    ]),
  };
}

function arcadeMenu(): ScreenSpec {
  return gameScreen('arcade_menu', [
    { text: 'STAR RUNNER', bounds: [140, 420, 940, 620] },
    {
      text: 'PLAY',
      bounds: [240, 900, 840, 1080],
      onClick: [
        { type: 'log', priority: 'I', tag: 'Unity', message: 'MainMenu: play pressed' },
        { type: 'goto', screen: 'arcade_level' },
      ],
    },
    {
      text: 'OPTIONS',
      bounds: [240, 1160, 840, 1340],
      onClick: [{ type: 'log', priority: 'I', tag: 'Unity', message: 'MainMenu: options pressed' }],
    },
    { text: 'QUIT', bounds: [240, 1420, 840, 1600], onClick: [{ type: 'back' }] },
  ]);
}

function arcadeLevel(): ScreenSpec {
  return gameScreen('arcade_level', [
    { text: 'LEVEL 1', bounds: [140, 600, 940, 780] },
    { text: 'PAUSE', bounds: [620, 140, 1020, 280], onClick: [{ type: 'back' }] },
  ]);
}

export const ARCADE_SCREENS: readonly ScreenSpec[] = [arcadeMenu(), arcadeLevel()];

export const ARCADE_PACKAGE: PackageSpec = {
  name: ARCADE,
  label: 'Star Runner',
  versionCode: 3,
  versionName: '1.0.2',
  launcher: { activity: '.GameActivity', screen: 'arcade_menu' },
};
