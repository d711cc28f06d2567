/**
 * Test screen: a search screen whose field is focused on open (the IME is up) over a
 * list of 30 results that runs on under the keyboard, as an app that does not resize for the IME
 * shows it. A swipe from 75 % of the height starts on the keyboard there.
 */
import {
  C,
  CONTENT_BOTTOM,
  appWindow,
  list,
  node,
  stackRows,
} from '../../packages/virtual-device/src/scenario/builders.js';
import type { ScenarioSpec } from '../../packages/virtual-device/src/scenario/model.js';

export const LONG_SEARCH_PACKAGE = 'com.example.longsearch';
export const LONG_SEARCH_SCREEN = 'long_search';
export const LONG_SEARCH_ROWS = Array.from({ length: 30 }, (_, i) => `Result ${i + 1}`);

export function withLongSearch(base: ScenarioSpec): ScenarioSpec {
  return {
    ...base,
    packages: [
      ...base.packages,
      {
        name: LONG_SEARCH_PACKAGE,
        thirdParty: true,
        launcher: { activity: '.SearchActivity', screen: LONG_SEARCH_SCREEN },
      },
    ],
    screens: [
      ...base.screens,
      {
        id: LONG_SEARCH_SCREEN,
        package: LONG_SEARCH_PACKAGE,
        activity: '.SearchActivity',
        focusOnOpen: 'query',
        root: appWindow([
          node(C.edit, [42, 84, 1038, 231], {
            key: 'query',
            hint: 'Search',
            text: '',
            clickable: true,
            focusable: true,
            longClickable: true,
          }),
          list(
            `${LONG_SEARCH_PACKAGE}:id/results`,
            [0, 252, 1080, CONTENT_BOTTOM],
            stackRows(
              252,
              200,
              LONG_SEARCH_ROWS.map((title) => ({ title, onClick: [] })),
            ),
          ),
        ]),
      },
    ],
  };
}
