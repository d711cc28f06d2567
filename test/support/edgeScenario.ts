/**
 * Test screens: an edge-to-edge checkout (an app targeting API 35 is laid out under the
 * system bars). Its close button's centre is under the status bar, its "Place order" button's
 * centre under the navigation bar (42 px of it show above the bar), and a "Terms" link lies
 * entirely under the bar. Placing the order opens a confirmation screen, so a tap that reached
 * the button is seen in the tree.
 */
import {
  C,
  appWindow,
  edgeToEdgeWindow,
  list,
  node,
  stackRows,
} from '../../packages/virtual-device/src/scenario/builders.js';
import type { ScenarioSpec } from '../../packages/virtual-device/src/scenario/model.js';

export const EDGE_PACKAGE = 'com.example.shop';
export const EDGE_SCREEN = 'edge_checkout';
export const EDGE_DONE_SCREEN = 'edge_order_placed';
/** Bounds of the three controls, [left, top, right, bottom]. */
export const EDGE_CLOSE = [0, 0, 147, 105] as const;
export const EDGE_PLACE_ORDER = [0, 2232, 1080, 2400] as const;
export const EDGE_TERMS = [300, 2300, 780, 2390] as const;

export function withEdgeToEdge(base: ScenarioSpec): ScenarioSpec {
  return {
    ...base,
    packages: [
      ...base.packages,
      { name: EDGE_PACKAGE, thirdParty: true, launcher: { activity: '.CheckoutActivity', screen: EDGE_SCREEN } },
    ],
    screens: [
      ...base.screens,
      {
        id: EDGE_SCREEN,
        package: EDGE_PACKAGE,
        activity: '.CheckoutActivity',
        root: edgeToEdgeWindow([
          node(C.imageButton, EDGE_CLOSE, {
            contentDesc: 'Close',
            clickable: true,
            focusable: true,
            onClick: [{ type: 'back' }],
          }),
          list(
            `${EDGE_PACKAGE}:id/cart`,
            [0, 105, 1080, 2232],
            stackRows(
              105,
              200,
              ['Apples', 'Bread', 'Coffee'].map((title) => ({ title, onClick: [] })),
            ),
          ),
          node(C.button, EDGE_PLACE_ORDER, {
            text: 'Place order',
            clickable: true,
            focusable: true,
            onClick: [{ type: 'goto', screen: EDGE_DONE_SCREEN }],
          }),
          node(C.text, EDGE_TERMS, {
            text: 'Terms of sale',
            clickable: true,
            onClick: [{ type: 'goto', screen: EDGE_DONE_SCREEN }],
          }),
        ]),
      },
      {
        id: EDGE_DONE_SCREEN,
        package: EDGE_PACKAGE,
        activity: '.DoneActivity',
        root: appWindow([node(C.text, [63, 300, 1017, 400], { text: 'Order placed' })]),
      },
    ],
  };
}
