/**
 * The smaller screen: bounds only on request, flat entries, the `id` key.
 * Through the whole application with in-memory ports (the fake device says which package is in
 * front, as dumpsys window would).
 */
import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../support/fakes/harness.js';
import { settingsAppsDump } from '../../support/fakes/screens.js';
import {
  selectorKeyOf,
  selectorOfEntry,
  withoutBounds,
  type WireSummary,
} from '../../../src/application/screen/wireSummary.js';
import type { ScreenSummary } from '../../../src/domain/tree/screen.js';

async function tree(h: ReturnType<typeof buildHarness>, args: Record<string, unknown> = {}): Promise<WireSummary> {
  const envelope = await h.envelope('ui_get_tree', args);
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return envelope.data as unknown as WireSummary;
}

describe('ui_get_tree: bounds only with include_bounds', () => {
  it('leaves every action and scrollable without bounds by default, and gives them all with include_bounds: true', async () => {
    const h = buildHarness();
    h.device.dump = settingsAppsDump();
    const plain = await tree(h);
    expect(plain.actions.length).toBeGreaterThan(0);
    expect(plain.actions.filter((a) => 'bounds' in a)).toEqual([]);
    expect((plain.scrollables ?? []).filter((s) => 'bounds' in s)).toEqual([]);
    const audited = await tree(h, { include_bounds: true });
    expect(audited.actions.every((a) => Array.isArray(a.bounds) && a.bounds.length === 4)).toBe(true);
    // The same entries and refs, bounds (and the read's own id) aside.
    expect({ ...withoutBounds(audited as ScreenSummary), read: 'same' }).toEqual({ ...plain, read: 'same' });
  });

  it('takes only the JSON booleans for include_bounds', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('ui_get_tree', { include_bounds: 'yes' });
    expect(envelope.error?.code).toBe('INVALID_ARGUMENT');
    expect(envelope.error?.message).toContain('include_bounds');
  });
});

describe('flat entries and the id key', () => {
  it("writes the foreground app's resource ids as `id`, the selector keys beside ref and the facts", async () => {
    const h = buildHarness();
    h.device.dump = settingsAppsDump();
    const { actions } = await tree(h);
    const search = actions.find((a) => a.id === 'search');
    expect(search).toEqual({
      ref: expect.stringMatching(/^e/) as unknown,
      id: 'search',
      label: 'Search apps',
      role: 'input',
      empty: true,
    });
    expect(selectorKeyOf(search!)).toBe('id');
    expect(selectorOfEntry(search!)).toEqual({ id: 'search' });
    expect(actions.some((a) => 'selector' in a)).toBe(false);
  });

  it('ui_tap {id} resolves with the package dumpsys puts in front right before the action', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.android.settings';
    h.automation.elements.set('com.android.settings:id/search', 'Search apps');
    const envelope = await h.envelope('ui_tap', { selector: { id: 'search' } });
    expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
    expect(h.automation.locators.at(-1)).toEqual({ using: 'id', value: 'com.android.settings:id/search' });
    // The answer echoes what the model sent.
    expect((envelope.data as { target: unknown }).target).toEqual({ id: 'search' });
  });

  it('an id means another resource id once another app is in front (it is relative to the foreground)', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.example.mail';
    h.automation.elements.set('com.example.mail:id/search', 'Search mail');
    const envelope = await h.envelope('ui_tap', { selector: { id: 'search', within: { id: 'toolbar' } } });
    expect(h.automation.locators.at(-1)?.value).toBe(
      "//*[(@resource-id='com.example.mail:id/search') and ancestor::*[@resource-id='com.example.mail:id/toolbar']]",
    );
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
  });

  it('refuses a ref sent with selector keys (a whole entry copied), saying to send only one of them', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('ui_tap', { selector: { ref: 'e1', text: 'Calendar', label: 'Calendar' } });
    expect(envelope.error?.code).toBe('INVALID_SELECTOR');
    expect(envelope.error?.message).toContain('send only the ref, or only the selector keys without it');
    expect(h.automation.locators).toEqual([]);
  });

  it('an acting tool takes no include_bounds inside its selector: position goes out, never in', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar', include_bounds: true } });
    expect(envelope.error?.code).toBe('INVALID_SELECTOR');
    expect(envelope.error?.message).toContain("'include_bounds', a position");
  });
});
