/**
 * Selenium Grid 4's failures → typed errors. The bodies in fixtures/selenium-grid are
 * what a Selenium 4.48.0 hub answered on this machine (stack traces cut to their first frames):
 * queue-timeout (a second POST /session for a device whose only node was busy, hub
 * --session-request-timeout 4), node-gone (a command after the relay node's JVM was SIGKILLed),
 * relay-appium-gone (a command after the Appium behind a live relay node stopped),
 * session-unknown (a command for a session id the hub's session map does not hold).
 * They go through the real webdriverio against a stub that replays them, so the test sees the
 * error exactly as the gateway does.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/domain/ports.js';
import { WebdriverAutomationGateway } from '../../../src/infrastructure/appium/WebdriverAutomationGateway.js';
import {
  gridCommandError,
  gridSessionError,
  isGridNodeLost,
  isGridQueueTimeout,
} from '../../../src/infrastructure/remote/seleniumGridErrors.js';
import { harnessError } from '../../support/harnessError.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'selenium-grid');
type GridReply = { status: number; body: { value: { error: string; message: string } } };
const reply = (name: string): GridReply =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as GridReply;

const SESSION = {
  value: {
    sessionId: 'abc123',
    capabilities: { platformName: 'ANDROID', 'appium:automationName': 'UiAutomator2', 'appium:udid': 'emulator-5556' },
  },
};

let server: Server | null = null;
afterEach(async () => {
  if (server) await new Promise((resolve) => server?.close(resolve));
  server = null;
});

/** A stand-in hub: POST /session answers `session`, every other request answers `command`. */
async function hub(session: GridReply | { status: number; body: unknown }, command?: GridReply): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer =
        req.method === 'POST' && req.url === '/session' ? session : (command ?? { status: 200, body: { value: null } });
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function gatewayAt(url: string, logger: Logger = silentLogger): WebdriverAutomationGateway {
  return new WebdriverAutomationGateway({ url, udid: 'emulator-5556', connectTimeoutMs: 5_000, logger });
}

describe('Selenium Grid errors through the gateway (real webdriverio, replayed Grid bodies)', () => {
  it("the new-session queue's timeout is EMULATOR_BUSY naming the device, and repeats none of the Grid's host details", async () => {
    const url = await hub(reply('queue-timeout'));
    const error = await harnessError(gatewayAt(url).openSession({ idleTimeoutMs: 60_000 }));
    expect(error.code).toBe('EMULATOR_BUSY');
    expect(error.message).toContain('emulator-5556');
    expect(error.message).toMatch(/Selenium Grid had no free node for it/);
    expect(error.message).not.toMatch(/Host info|java\.version|127\.0\.0\.1/);
  });

  it.each(['node-gone', 'relay-appium-gone', 'session-unknown'])(
    '%s: a command the hub cannot relay is APPIUM_UNAVAILABLE naming the device, with no node URL',
    async (name) => {
      const url = await hub({ status: 200, body: SESSION }, reply(name));
      const session = await gatewayAt(url).openSession({ idleTimeoutMs: 60_000 });
      const error = await harnessError(session.pageSource());
      expect(error.code).toBe('APPIUM_UNAVAILABLE');
      expect(error.message).toContain('emulator-5556');
      expect(error.message).toMatch(/could not reach the node.*session is lost/);
      expect(error.message).not.toMatch(/http:|15555|14723/);
    },
  );

  it('closing a session whose node is gone is expected (the session went with the node): debug, not a warning', async () => {
    const url = await hub({ status: 200, body: SESSION }, reply('node-gone'));
    const logger = new RecordingLogger();
    const session = await gatewayAt(url, logger).openSession({ idleTimeoutMs: 60_000 });
    await expect(session.close()).resolves.toBeUndefined();
    expect(logger.entries.filter((e) => e.level === 'warn' || e.level === 'error')).toEqual([]);
    expect(logger.entries.find((e) => e.level === 'debug')?.message).toBe('Appium session was already gone at close');
  });

  it('a plain Appium session-creation failure is not taken for the Grid', async () => {
    const url = await hub({
      status: 500,
      body: {
        value: { error: 'session not created', message: 'Could not find a connected Android device in 20000ms' },
      },
    });
    const error = await harnessError(gatewayAt(url).openSession({ idleTimeoutMs: 60_000 }));
    expect(error.code).toBe('APPIUM_UNAVAILABLE');
    expect(error.message).toMatch(/could not create a UiAutomator2 session on emulator-5556/);
  });
});

describe('the classifiers on their own', () => {
  it("recognise each reply's message, and nothing of Appium's own", () => {
    expect(isGridQueueTimeout(new Error(reply('queue-timeout').body.value.message))).toBe(true);
    for (const name of ['node-gone', 'relay-appium-gone', 'session-unknown']) {
      expect(isGridNodeLost(new Error(reply(name).body.value.message))).toBe(true);
      expect(isGridQueueTimeout(new Error(reply(name).body.value.message))).toBe(false);
    }
    const appium = new Error('A session is either terminated or not started');
    expect(isGridNodeLost(appium)).toBe(false);
    expect(isGridQueueTimeout(appium)).toBe(false);
    expect(gridSessionError(appium, 'emulator-5554')).toBeNull();
    expect(gridCommandError(appium, 'emulator-5554')).toBeNull();
  });

  it('a queue timeout seen on a command is not mapped there (only session creation queues)', () => {
    expect(gridCommandError(new Error('New session request timed out'), 'emulator-5554')).toBeNull();
    expect(gridSessionError(new Error('New session request timed out'), 'emulator-5554')?.code).toBe('EMULATOR_BUSY');
  });

  it("reads the message from the error's cause too, and from a bare string", () => {
    const wrapped = new Error('session creation failed', { cause: new Error(reply('node-gone').body.value.message) });
    expect(gridSessionError(wrapped, 'emulator-5554')?.code).toBe('APPIUM_UNAVAILABLE');
    expect(isGridQueueTimeout('Could not start a new session. New session request timed out')).toBe(true);
  });
});
