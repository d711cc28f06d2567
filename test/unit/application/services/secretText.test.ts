import { describe, expect, it } from 'vitest';
import { type ActionEntry } from '../../../../src/domain/tree/screen.js';
import { buildHarness, type TestHarness } from '../../../support/fakes/harness.js';
import { selectorOfEntry } from '../../../../src/application/screen/wireSummary.js';

describe("a password field's text never leaves the harness", () => {
  const SECRET = 'hunter2-secret';
  // A view that exposes the plain text to accessibility: the worst case a device can do.
  const loginDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.login" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="${SECRET}" resource-id="" class="android.widget.EditText" package="com.example.login" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="true" selected="false" bounds="[42,300][1038,450]" hint="Password" /><node index="1" text="Sign in" resource-id="" class="android.widget.Button" package="com.example.login" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[42,500][1038,650]" /></node></hierarchy>`;

  const leaks = (h: TestHarness, envelope: unknown): string[] => [
    ...(JSON.stringify(envelope).includes(SECRET) ? ['the envelope'] : []),
    ...h.logger.entries
      .filter((e) => `${e.message} ${JSON.stringify(e.fields ?? {})}`.includes(SECRET))
      .map((e) => `log: ${e.message}`),
  ];

  it('ui_get_tree, with and without include_raw, through adb and through a flow', async () => {
    const h = buildHarness({ logLevel: 'debug' });
    h.device.dump = loginDump;
    h.automation.source = loginDump;
    for (const args of [{}, { include_raw: true }]) {
      const envelope = await h.envelope('ui_get_tree', args);
      expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
      const actions = (envelope.data as { actions: ActionEntry[] }).actions;
      expect(selectorOfEntry(actions.find((a) => a.role === 'input')!)).toEqual({ input_hint: 'Password' });
      expect(leaks(h, envelope)).toEqual([]);
    }
    const raw = (await h.envelope('ui_get_tree', { include_raw: true })).data as { ui_tree: string };
    expect(raw.ui_tree).toContain('password="true"');
    expect(raw.ui_tree).toContain('text="[hidden password]"');
    const open = await h.envelope('ui_session_open');
    const sessionId = (open.data as { session_id: string }).session_id;
    const viaFlow = await h.envelope('ui_get_tree', { session_id: sessionId, include_raw: true });
    expect(viaFlow.ok).toBe(true);
    expect(leaks(h, viaFlow)).toEqual([]);
  });

  it('ui_tap that finds nothing names the field by its hint, never by its text', async () => {
    const h = buildHarness({ logLevel: 'debug' });
    h.automation.source = loginDump;
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Log in' } });
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(envelope.error?.message).toContain("'Password' (input)");
    expect(leaks(h, envelope)).toEqual([]);
  });
});
