import { parseDump } from '../domain/dump.js';
import type { AutomationSession, DeviceGateway } from '../domain/ports.js';
import type { ScreenSummary } from '../domain/screen.js';
import { summariseScreen } from '../domain/summary.js';
import type { UiTree } from '../domain/uiNode.js';

export interface ScreenReading {
  readonly summary: ScreenSummary;
  readonly tree: UiTree;
  readonly xml: string;
}

/**
 * Reads the screen and summarises it (CONTRACT §6), from one of two sources:
 * `uiautomator dump` through adb when no Appium session is alive, or the page
 * source of a live session. Android lets only one UiAutomation client register, so
 * dumping while a session runs would break that session: whoever holds a session
 * must read through it. Density and window state always come from adb (dumpsys and
 * wm, which do not touch UiAutomation).
 */
export async function readScreenViaAdb(device: DeviceGateway): Promise<ScreenReading> {
  const xml = await device.dumpUi();
  return summarise(device, xml);
}

export async function readScreenViaDriver(device: DeviceGateway, session: AutomationSession): Promise<ScreenReading> {
  const xml = await session.pageSource();
  return summarise(device, xml);
}

async function summarise(device: DeviceGateway, xml: string): Promise<ScreenReading> {
  const tree = parseDump(xml);
  const density = await device.getDensity();
  const window = await device.getWindowState();
  return { summary: summariseScreen(tree, { density, window }), tree, xml };
}
