import { describe, expect, it } from 'vitest';
import { TOOLSET_NAMES } from '../../../src/domain/toolsets.js';
import { buildHarness } from '../../support/fakes/harness.js';

// Every tool of every toolset refuses an argument name it does not declare, before anything
// reaches the device or Appium: an ignored `sesion_id` would run outside the caller's flow, an
// ignored `bounds` would let a model believe it had tapped a position.
describe('strict argument names over tools/call', () => {
  const h = buildHarness({ toolsets: [...TOOLSET_NAMES] });
  const tools = h.container.server.listTools().tools;

  it('publishes tools of every toolset (so the loop below covers them all)', () => {
    expect(tools.length).toBeGreaterThan(12);
  });

  it.each(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})] as const))(
    '%s refuses a misspelt key with INVALID_ARGUMENT naming the keys it takes, touching nothing',
    async (name, declared) => {
      const before = { device: h.device.calls.length, sessions: h.automation.sessions.length };
      const answer = await h.envelope(name, { sesion_id: 'abc' });
      expect(answer.error?.code).toBe('INVALID_ARGUMENT');
      const takes = declared.length > 0 ? `${name} takes only ${declared.join(', ')}.` : `${name} takes no arguments.`;
      expect(answer.error?.message).toBe(`Invalid argument 'sesion_id': ${takes}`);
      expect(h.device.calls.length, 'nothing asked of adb').toBe(before.device);
      expect(h.automation.sessions.length, 'no Appium session').toBe(before.sessions);
      expect(answer.evidence).toBeNull();
    },
  );

  it('a position-like name says the model never sends positions, beside the keys the tool takes', async () => {
    for (const key of ['bounds', 'x', 'coordinates']) {
      const answer = await h.envelope('ui_tap', { selector: { text: 'Apps' }, [key]: [0, 0, 10, 10] });
      expect(answer.error).toEqual({
        code: 'INVALID_ARGUMENT',
        message:
          `Invalid argument '${key}', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so ` +
          'name the element with a selector or a ref from ui_get_tree; ui_tap takes only selector, long_press, observe, session_id.',
      });
    }
    expect(
      h.automation.sessions.flatMap((session) => session.calls).filter((call) => call === 'click'),
      'nothing was tapped',
    ).toEqual([]);
  });

  it('include_bounds is taken where declared (ui_get_tree) and refused as a position on an acting tool', async () => {
    expect((await h.envelope('ui_get_tree', { include_bounds: true })).ok).toBe(true);
    const acting = await h.envelope('ui_tap', { selector: { text: 'Apps' }, include_bounds: true });
    expect(acting.error?.code).toBe('INVALID_ARGUMENT');
    expect(acting.error?.message).toMatch(/^Invalid argument 'include_bounds', a position/);
  });

  it('absent and null optional arguments that are declared still pass (null means "not given")', async () => {
    expect((await h.envelope('ui_get_tree', { include_raw: null, session_id: null })).ok).toBe(true);
  });
});
