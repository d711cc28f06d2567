/** What several of the services' tests need of the fake harness. */
import { buildLocator } from '../../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../../src/domain/validation.js';
import type { TestHarness } from '../../../support/fakes/harness.js';

/** Makes the fake Appium find `selector` (through the domain's own locator) as an element labelled `label`. */
export function offer(h: TestHarness, selector: Record<string, unknown>, label: string): void {
  h.automation.elements.set(buildLocator(parseSelector(selector)).value, label);
}

/** How often the foreground was read (PressBack returns before the window focus has moved). */
export const windowReads = (h: TestHarness): number => h.device.calls.filter((c) => c === 'getWindowState').length;
