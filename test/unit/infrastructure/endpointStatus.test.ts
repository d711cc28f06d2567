/**
 * GET /status bodies: Appium's, and a Selenium Grid 4 hub's in the shape Selenium's
 * GridStatusHandler writes (nodes with availability, maxSessions, version, slots whose session
 * is null when free). The Grid bodies below were answered by a real selenium-server 4.48.0 hub
 * with one relay node (ids shortened); the busy slot's session has Selenium's Session.toJson keys.
 */
import { describe, expect, it } from 'vitest';
import { parseEndpointStatus } from '../../../src/infrastructure/appium/endpointStatus.js';

const SELENIUM_VERSION = '4.48.0 (revision 27f5213 27f5213055e28398a5105b7892b7a3bb2012a6ef)';

function slot(stereotype: Record<string, unknown>, session: unknown = null) {
  return {
    id: { hostId: 'e142336d', id: '1290e4bc' },
    lastStarted: '1970-01-01T00:00:00Z',
    session,
    stereotype,
  };
}

function node(availability: string, slots: unknown[], maxSessions = 1) {
  return {
    slots,
    id: 'e142336d-5b09-4c95-a89c-7186ea4ef333',
    sessionTimeout: 300000,
    version: SELENIUM_VERSION,
    availability,
    maxSessions,
    osInfo: { version: '6.18.44-fc-v1045', arch: 'amd64', name: 'Linux' },
    uri: 'http://127.0.0.1:46549',
    heartbeatPeriod: 5000,
  };
}

const STEREOTYPE = {
  'appium:automationName': 'UiAutomator2',
  'appium:udid': '127.0.0.1:41235',
  platformName: 'ANDROID',
};

const BUSY_SESSION = {
  capabilities: { platformName: 'ANDROID', 'appium:automationName': 'UiAutomator2' },
  sessionId: '5d1f1c3e-8a0b-4c4e-9d55-0f2a8c1b7e11',
  stereotype: STEREOTYPE,
  start: '2025-12-01T19:50:00.123Z',
  uri: 'http://127.0.0.1:46549',
};

describe('parseEndpointStatus: Appium', () => {
  it('reads Appium 3 exactly as before: kind appium with its build version', () => {
    const body = {
      value: { ready: true, message: 'The server is ready to accept new connections', build: { version: '3.8.0' } },
    };
    expect(parseEndpointStatus(body)).toEqual({ kind: 'appium', version: '3.8.0', ready: true });
  });

  it.each([
    ['no build version', { value: { ready: true } }],
    ['an empty build version', { value: { build: { version: '' } } }],
    ['not an object', 'hello'],
    ['null', null],
    ['a Grid-like body without nodes and no distributor message', { value: { ready: false, message: 'not ready' } }],
    ['nodes that are not a list', { value: { ready: true, message: 'Selenium Grid ready.', nodes: {} } }],
  ])('is neither Appium nor a Grid: %s', (_label, body) => {
    expect(parseEndpointStatus(body)).toBeNull();
  });
});

describe('parseEndpointStatus: a Selenium Grid 4 hub', () => {
  it('a ready hub with one relay node UP and free', () => {
    const body = { value: { message: 'Selenium Grid ready.', ready: true, nodes: [node('UP', [slot(STEREOTYPE)])] } };
    expect(parseEndpointStatus(body)).toEqual({
      kind: 'selenium-grid',
      version: null,
      ready: true,
      message: 'Selenium Grid ready.',
      gridVersion: '4.48.0',
      nodes: { total: 1, up: 1, available: 1 },
      sessions: 0,
    });
  });

  it('a hub that is not ready: its only node DOWN (its Appium stopped answering /status)', () => {
    const body = {
      value: { ready: false, nodes: [node('DOWN', [slot(STEREOTYPE)])], message: 'Selenium Grid not ready.' },
    };
    expect(parseEndpointStatus(body)).toMatchObject({
      kind: 'selenium-grid',
      ready: false,
      message: 'Selenium Grid not ready.',
      nodes: { total: 1, up: 0, available: 0 },
      sessions: 0,
    });
  });

  it('a hub that is not ready: its only node UP but its one slot holds a session', () => {
    const body = {
      value: {
        ready: false,
        message: 'Selenium Grid not ready.',
        nodes: [node('UP', [slot(STEREOTYPE, BUSY_SESSION)])],
      },
    };
    expect(parseEndpointStatus(body)).toMatchObject({
      ready: false,
      nodes: { total: 1, up: 1, available: 0 },
      sessions: 1,
    });
  });

  it('a hub with zero nodes', () => {
    expect(parseEndpointStatus({ value: { ready: false, message: 'Selenium Grid not ready.', nodes: [] } })).toEqual({
      kind: 'selenium-grid',
      version: null,
      ready: false,
      message: 'Selenium Grid not ready.',
      gridVersion: null,
      nodes: { total: 0, up: 0, available: 0 },
      sessions: 0,
    });
  });

  it('a hub whose distributor did not answer in time: no node list, so no counts', () => {
    for (const message of ['Unable to read distributor status.', 'Reading distributor status was interrupted.']) {
      expect(parseEndpointStatus({ value: { ready: false, message } })).toEqual({
        kind: 'selenium-grid',
        version: null,
        ready: false,
        message,
        gridVersion: null,
        nodes: null,
        sessions: null,
      });
    }
  });

  it('counts by Selenium’s rules: DRAINING is not up; a node at its session limit is not available', () => {
    const body = {
      value: {
        ready: true,
        message: 'Selenium Grid ready.',
        nodes: [
          node('UP', [slot(STEREOTYPE)]),
          node('DRAINING', [slot(STEREOTYPE)]),
          // Two slots but maxSessions 1, one of them busy: at its limit.
          node('UP', [slot(STEREOTYPE, BUSY_SESSION), slot(STEREOTYPE)], 1),
          // Two slots, maxSessions 2, one busy: still room.
          node('UP', [slot(STEREOTYPE, BUSY_SESSION), slot(STEREOTYPE)], 2),
        ],
      },
    };
    expect(parseEndpointStatus(body)).toMatchObject({ nodes: { total: 4, up: 3, available: 2 }, sessions: 2 });
  });

  it('reports the Appium version only when every slot’s stereotype declares the same appium:appiumVersion', () => {
    const versioned = (version: string) => slot({ ...STEREOTYPE, 'appium:appiumVersion': version });
    const grid = (slots: unknown[]) => ({
      value: { ready: true, message: 'Selenium Grid ready.', nodes: [node('UP', slots, slots.length)] },
    });
    expect(parseEndpointStatus(grid([versioned('3.8.0'), versioned('3.8.0')]))?.version).toBe('3.8.0');
    expect(parseEndpointStatus(grid([versioned('3.8.0'), versioned('3.7.1')]))?.version).toBeNull();
    expect(parseEndpointStatus(grid([versioned('3.8.0'), slot(STEREOTYPE)]))?.version).toBeNull();
  });

  it('keeps the Selenium release without its revision, and null when nodes differ', () => {
    const other = { ...node('UP', [slot(STEREOTYPE)]), version: '4.47.0 (revision abc)' };
    const body = {
      value: { ready: true, message: 'Selenium Grid ready.', nodes: [node('UP', [slot(STEREOTYPE)]), other] },
    };
    expect(parseEndpointStatus(body)).toMatchObject({ gridVersion: null, nodes: { total: 2 } });
  });
});
