/**
 * For real: the built server over stdio, the real Appium 3 + UiAutomator2 on
 * the virtual device. Appium's own idle timeout (newCommandTimeout) follows the lease each
 * session serves, read back from Appium itself (its session list and GET /session/:id/timeouts,
 * the timer it really runs); a short lease is ended by the harness, not by Appium; and the close
 * of a session Appium had already dropped is no warning.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type HarnessProcess } from '../e2e/support/harnessClient.js';
import { startStack, type E2eStack } from '../e2e/support/stack.js';
import { describeWithAdb } from '../support/adbServer.js';
import { sleep } from '../support/processes.js';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** pino's levels. */
const DEBUG = 20;
const WARN = 40;

function logLines(harness: HarnessProcess): LogLine[] {
  return harness
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  expect(response.status, url).toBe(200);
  return response.json();
}

/** Appium's own view of a session: the newCommandTimeout it was created with and the timer it runs (ms). */
async function appiumTimeouts(
  stack: E2eStack,
  sessionId: string,
): Promise<{ capability: unknown; commandMs: unknown }> {
  const list = (await getJson(`${stack.appium.url}/appium/sessions`)) as {
    value: { id: string; capabilities: Record<string, unknown> }[];
  };
  const entry = list.value.find((s) => s.id === sessionId);
  const timeouts = (await getJson(`${stack.appium.url}/session/${sessionId}/timeouts`)) as {
    value: { command?: unknown };
  };
  return { capability: entry?.capabilities.newCommandTimeout, commandMs: timeouts.value.command };
}

/** The `appium:newCommandTimeout` of every session creation request Appium has logged so far. */
function requestedTimeouts(stack: E2eStack): unknown[] {
  return readFileSync(stack.appium.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('--> POST /session {'))
    .map((line) => {
      const body = JSON.parse(line.slice(line.indexOf('{'))) as {
        capabilities: { alwaysMatch: Record<string, unknown> };
      };
      return body.capabilities.alwaysMatch['appium:newCommandTimeout'];
    });
}

async function sessionsSettle(stack: E2eStack, withinMs: number): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  let ids = await stack.appium.sessionIds();
  while (ids.length > 0 && Date.now() < deadline) {
    await sleep(200);
    ids = await stack.appium.sessionIds();
  }
  return ids;
}

describeWithAdb('the driver idle timeout follows the lease (real Appium)', () => {
  let stack: E2eStack;
  /** ANDROID_MCP_SESSION_IDLE_TIMEOUT=180, longer than the fixed 60 s Appium used to be given. */
  let long: HarnessProcess;

  beforeAll(async () => {
    stack = await startStack({ label: 'flow-lease' });
    long = await startHarness(
      stack.harnessEnv({ ANDROID_MCP_SESSION_IDLE_TIMEOUT: '180', ANDROID_MCP_LOG_LEVEL: 'debug' }),
    );
  }, 120_000);

  afterAll(async () => {
    await long?.close();
    await stack?.stop();
  }, 60_000);

  it('a 180 s flow: Appium runs its session with newCommandTimeout 210 s; a warm session gets the 90 s ceiling + 30 s', async () => {
    const open = await long.call('ui_session_open');
    expect(open.envelope.error).toBeNull();
    expect(open.envelope.data.idle_timeout_seconds).toBe(180);
    try {
      const [appiumSession] = await stack.appium.sessionIds();
      expect(appiumSession).toBeDefined();
      expect(await appiumTimeouts(stack, appiumSession as string)).toEqual({ capability: 210, commandMs: 210_000 });
    } finally {
      const close = await long.call('ui_session_close', { session_id: open.envelope.data.session_id });
      expect(close.envelope.data).toEqual({ closed: true });
    }
    expect(await stack.appium.sessionIds()).toEqual([]);

    const back = await long.call('device_back');
    expect(back.envelope.error).toBeNull();
    expect(requestedTimeouts(stack).slice(-2)).toEqual([210, 120]);
  });

  it('a session Appium already dropped: ui_session_close still answers closed, and the 404 on delete is debug, not a warning', async () => {
    const open = await long.call('ui_session_open');
    expect(open.envelope.error).toBeNull();
    const [appiumSession] = await stack.appium.sessionIds();
    // What Appium's own newCommandTimeout does when it fires: the session is deleted under the harness.
    const deleted = await fetch(`${stack.appium.url}/session/${appiumSession as string}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);

    const close = await long.call('ui_session_close', { session_id: open.envelope.data.session_id });
    expect(close.envelope.data).toEqual({ closed: true });
    const lines = logLines(long).filter((l) => l.sessionId === appiumSession);
    expect(
      lines.filter((l) => l.level >= WARN),
      long.stderr().slice(-3000),
    ).toEqual([]);
    expect(
      lines.some((l) => l.level === DEBUG && l.msg === 'Appium session was already gone at close'),
      long.stderr().slice(-3000),
    ).toBe(true);
  });

  it('a 2 s lease is ended by the harness itself: Appium never times the session out, and the id is then INVALID_UI_SESSION (expired)', async () => {
    const short = await startHarness(
      stack.harnessEnv({
        // The lease's older name, still read: this run proves it still sets the lease.
        ANDROID_MCP_FLOW_IDLE_TIMEOUT: '2',
        ANDROID_MCP_ACTION_TIMEOUT: '5',
        ANDROID_MCP_LOG_LEVEL: 'debug',
      }),
    );
    try {
      const open = await short.call('ui_session_open');
      expect(open.envelope.error).toBeNull();
      expect(open.envelope.data.idle_timeout_seconds).toBe(2);
      const [appiumSession] = await stack.appium.sessionIds();
      // The lease is shorter than the ceiling: Appium waits the ceiling (5 s) + 30 s.
      expect(await appiumTimeouts(stack, appiumSession as string)).toEqual({ capability: 35, commandMs: 35_000 });

      expect(await sessionsSettle(stack, 15_000)).toEqual([]);
      const late = await short.call('ui_tap', {
        selector: { text: 'Apps' },
        session_id: open.envelope.data.session_id,
      });
      expect(late.envelope.error?.code).toBe('INVALID_UI_SESSION');
      expect(late.envelope.error?.message).toMatch(/expired/);

      const lines = logLines(short);
      expect(
        lines.some((l) => l.msg === 'UI session expired'),
        short.stderr().slice(-3000),
      ).toBe(true);
      expect(lines.some((l) => l.msg === 'Appium session closed' && l.sessionId === appiumSession)).toBe(true);
      expect(
        lines.filter((l) => l.level >= WARN),
        short.stderr().slice(-3000),
      ).toEqual([]);
      expect(readFileSync(stack.appium.logFile, 'utf8')).not.toMatch(/Shutting down because we waited/);
    } finally {
      await short.close();
    }
  });
});
