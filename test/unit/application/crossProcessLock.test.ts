/**
 * The cross-process device lock wired into the container: two containers stand for two
 * server processes (different pids) sharing one lock directory and one device.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { FakeAutomation } from '../../support/fakes/FakeAutomation.js';
import { FakeDevice } from '../../support/fakes/FakeDevice.js';
import { lockedServer } from '../../support/fakes/lockedServer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const server = (pid: number, directory: string, device: FakeDevice, automation: FakeAutomation) =>
  lockedServer(pid, directory, device, automation);

describe('one owner across processes (container wiring)', () => {
  it('a flow open in one process makes every call of another EMULATOR_BUSY until it is closed', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'amh-xlock-')), 'locks');
    dirs.push(directory);
    const device = new FakeDevice();
    const automation = new FakeAutomation();
    const a = server(1001, directory, device, automation);
    const b = server(1002, directory, device, automation);

    const opened = await a.call('ui_session_open');
    expect(opened.ok).toBe(true);
    const sessionId = (opened.data as { session_id: string }).session_id;
    // Between A's calls the flow's session keeps the device A's.
    expect(a.lock.peek()?.activity.kind).toBe('session');

    for (const tool of ['ui_get_tree', 'screen_capture', 'app_list_installed', 'ui_session_open', 'device_back']) {
      const refused = await b.call(tool);
      expect(refused.error?.code, tool).toBe('EMULATOR_BUSY');
      expect(refused.error?.message).toContain('pid 1001');
      expect(refused.error?.message).toMatch(/Appium session open/);
    }
    // A itself goes on using its flow.
    expect((await a.call('ui_get_tree', { session_id: sessionId })).ok).toBe(true);
    expect((await a.call('ui_session_close', { session_id: sessionId })).ok).toBe(true);
    expect(a.lock.peek()).toBeNull();
    expect((await b.call('ui_get_tree')).ok).toBe(true);
    expect(b.lock.peek()).toBeNull();
  });

  it('an expired flow gives the device back without any call', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'amh-xlock-')), 'locks');
    dirs.push(directory);
    const device = new FakeDevice();
    const automation = new FakeAutomation();
    const a = server(1001, directory, device, automation);
    const b = server(1002, directory, device, automation);
    expect((await a.call('ui_session_open')).ok).toBe(true);
    expect((await b.call('ui_get_tree')).error?.code).toBe('EMULATOR_BUSY');
    await a.clock.advance(61_000);
    expect(automation.open.size).toBe(0);
    expect(a.lock.peek()).toBeNull();
    expect((await b.call('ui_get_tree')).ok).toBe(true);
  });

  it('a warm session keeps nothing after its action; invalid input never touches the lock', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'amh-xlock-')), 'locks');
    dirs.push(directory);
    const device = new FakeDevice();
    const automation = new FakeAutomation();
    automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    const a = server(1001, directory, device, automation);
    const b = server(1002, directory, device, automation);
    const hold = b.lock.hold({ tool: 'ui_scroll', operationId: 'op-b', kind: 'operation' });
    // Validation runs before the gate: a malformed call is answered with its own error, not BUSY.
    expect((await a.call('ui_tap', { selector: { text: '' } })).error?.code).toBe('INVALID_SELECTOR');
    expect((await a.call('ui_tap', { selector: { text: 'Calendar' } })).error?.code).toBe('EMULATOR_BUSY');
    hold();
    const tapped = await a.call('ui_tap', { selector: { text: 'Calendar' } });
    expect(tapped.ok, JSON.stringify(tapped.error)).toBe(true);
    expect(a.lock.peek()).toBeNull();
    expect(automation.open.size).toBe(0);
  });
});
