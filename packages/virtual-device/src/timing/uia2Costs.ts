/**
 * What the UiAutomator2 server's endpoints cost on a real device (the server's own time, from
 * Appium's proxy lines: sources.ts), and which figure a request draws from. Requests not listed
 * (status, settings, sessions list) answer from memory on the real server too and cost nothing
 * beyond the HTTP round trip.
 */
import type { Figure } from './figure.js';
import { APPIUM_LOGS, THREADS } from './sources.js';

export const UIA2_COSTS = {
  sessionCreate: { medianMs: 31, p90Ms: 121, source: `${APPIUM_LOGS}: POST /session, n=6` },
  findById: { medianMs: 56, p90Ms: 947, source: `${APPIUM_LOGS}: POST /element(s) by id, n=37 (API 30)` },
  findByXpath: { medianMs: 49, p90Ms: 594, source: `${APPIUM_LOGS}: POST /element(s) by xpath, n=127 (API 30)` },
  findByUiSelector: {
    medianMs: 171,
    p90Ms: 1594,
    source: `${APPIUM_LOGS}: POST /element(s) by -android uiautomator, n=14 (API 31)`,
  },
  /** No recording of accessibility id or class name: id's figure (the same UiObject2 search). */
  findOther: { medianMs: 56, p90Ms: 947, source: 'no recording found; the by-id figure (same BySelector search)' },
  click: { medianMs: 88, p90Ms: 715, source: `${APPIUM_LOGS}: POST /element/:id/click, n=32` },
  setText: { medianMs: 64, p90Ms: 1133, source: `${APPIUM_LOGS}: POST /element/:id/value, n=22` },
  clear: { medianMs: 73, p90Ms: 116, source: `${APPIUM_LOGS}: POST /element/:id/clear, n=6` },
  elementRead: { medianMs: 30, p90Ms: 160, source: `${APPIUM_LOGS}: GET /element/:id/attribute|text|rect, n=55` },
  deviceRead: {
    medianMs: 53,
    p90Ms: 174,
    source: `${APPIUM_LOGS}: other GETs (device info, window size, current package…), n=30`,
  },
  source: {
    medianMs: 45,
    p90Ms: 180,
    perNodeMs: 2.3,
    source: `${APPIUM_LOGS}: GET /source 45 ms, n=1 (API 30; p90 assumed 4x); per node ${THREADS.mobilecliAgent} (a UiAutomation serialiser, 57 vs 137 nodes)`,
  },
  screenshot: {
    medianMs: 1470,
    p90Ms: 1517,
    referenceMegapixels: 1.152,
    source: `${APPIUM_LOGS}: GET /screenshot, n=2 (API 31, Samsung SM-A217F, 720x1600), in proportion to pixels`,
  },
  gesture: { medianMs: 1378, p90Ms: 4257, source: `${APPIUM_LOGS}: POST /actions and touch gestures, n=2 (API 30)` },
  /** No recording of press_keycode or back: the click figure (one injected event pair). */
  key: { medianMs: 88, p90Ms: 715, source: 'no recording found; the click figure (one injected key event pair)' },
} as const satisfies Record<string, Figure>;

export type Uia2Cost = keyof typeof UIA2_COSTS;

function findCost(body: Record<string, unknown>): Uia2Cost {
  switch (body.strategy ?? body.using) {
    case 'id':
      return 'findById';
    case 'xpath':
      return 'findByXpath';
    case '-android uiautomator':
      return 'findByUiSelector';
    default:
      return 'findOther';
  }
}

/** The figure for one request; `rest` is the path after `/session/:id` (or the whole path outside a session). */
export function uia2Charge(method: string, path: string, body: Record<string, unknown>): Uia2Cost | null {
  if (method === 'POST' && path === '/session') return 'sessionCreate';
  const rest = path.replace(/^\/session\/[^/]+/, '') || '/';
  if (rest === path && path !== '/') return null;
  if (method === 'POST') {
    if (/^(\/element\/[^/]+)?\/elements?$/.test(rest)) return findCost(body);
    if (/\/click$/.test(rest)) return 'click';
    if (/^\/element\/[^/]+\/value$/.test(rest)) return 'setText';
    if (/^\/element\/[^/]+\/clear$/.test(rest)) return 'clear';
    if (/^\/(actions|touch\/\w+|appium\/gestures\/\w+)$/.test(rest)) return 'gesture';
    if (/^\/(back|appium\/device\/(long_)?press_keycode)$/.test(rest)) return 'key';
    return null;
  }
  if (method === 'GET') {
    if (rest === '/source') return 'source';
    if (rest === '/screenshot' || /^\/element\/[^/]+\/screenshot$/.test(rest)) return 'screenshot';
    if (/^\/element\/[^/]+\//.test(rest)) return 'elementRead';
    if (rest.startsWith('/appium/device/') || rest.startsWith('/window') || rest === '/orientation')
      return 'deviceRead';
  }
  return null;
}
