import { describe, expect, it } from 'vitest';
import { nameOfEntry, type ActionEntry } from '../../../../src/domain/tree/screen.js';
import { buildHarness } from '../../../support/fakes/harness.js';
import { settingsAppsDump } from '../../../support/fakes/screens.js';

describe('observers: ui_get_tree', () => {
  it('ui_get_tree summarises the dump read through adb and adds ui_tree only on request', async () => {
    const h = buildHarness();
    const plain = await h.envelope('ui_get_tree');
    expect(plain.ok).toBe(true);
    const data = plain.data as Record<string, unknown>;
    expect(data.foreground_package).toBe('com.android.settings');
    expect(data).not.toHaveProperty('ui_tree');
    const labels = (data.actions as ActionEntry[]).map(nameOfEntry);
    expect(labels).toEqual(expect.arrayContaining(['Calendar', 'Clock']));
    const raw = await h.envelope('ui_get_tree', { include_raw: true });
    expect((raw.data as Record<string, unknown>).ui_tree).toBe(settingsAppsDump());
    expect((await h.envelope('ui_get_tree', { include_raw: false })).data).not.toHaveProperty('ui_tree');
    expect((await h.envelope('ui_get_tree', { include_raw: null })).data).not.toHaveProperty('ui_tree');
    expect(h.device.calls.filter((c) => c === 'dumpUi')).toHaveLength(4);
    expect(h.automation.log).toEqual([]);
  });

  it('ui_get_tree answers UI_TREE_UNAVAILABLE for an unparseable dump', async () => {
    const h = buildHarness();
    h.device.dump = 'ERROR: null root node returned by UiTestAutomationBridge.';
    expect((await h.envelope('ui_get_tree')).error?.code).toBe('UI_TREE_UNAVAILABLE');
  });
});
