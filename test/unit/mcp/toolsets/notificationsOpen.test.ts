import { describe, expect, it } from 'vitest';
import { expectEvidence } from '../../../support/evidenceShape.js';
import { buildHarness, drive } from '../../../support/fakes/harness.js';

describe('notifications_open (toolset device)', () => {
  it('pulls the shade through the driver, then answers the screen read through that session with refs, and evidence', async () => {
    const h = buildHarness({ toolsets: ['core', 'device'] });
    const env = await drive(h.clock, h.envelope('notifications_open', {}));
    expect(env).toMatchObject({ ok: true, tool: 'notifications_open', error: null });
    expectEvidence(env.evidence, 'notifications-open', (id) => h.store.files.has(id));
    const actions = env.data.actions as { ref: string }[];
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => /^e[0-9a-z]+$/.test(a.ref))).toBe(true);
    expect(h.automation.sessions.flatMap((s) => s.shadePulls)).toHaveLength(1);
    const calls = h.automation.sessions.flatMap((s) => s.calls);
    expect(calls.indexOf('openNotifications')).toBeLessThan(calls.lastIndexOf('pageSource'));
    // The refs it gave are registered as ui_get_tree's are: ui_tap knows them (the e2e suite taps one).
    const tapped = await drive(h.clock, h.envelope('ui_tap', { selector: { ref: actions[0]!.ref } }));
    expect(tapped.error?.message ?? '').not.toMatch(/never given by this server/);
  });

  it('takes nothing but session_id, and refuses a position', async () => {
    const h = buildHarness({ toolsets: ['core', 'device'] });
    expect((await h.envelope('notifications_open', { x: 10, y: 20 })).error?.code).toBe('INVALID_ARGUMENT');
    expect(h.automation.sessions).toHaveLength(0);
  });
});
