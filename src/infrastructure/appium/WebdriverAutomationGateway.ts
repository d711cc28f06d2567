/**
 * The AutomationGateway over WebDriver (webdriverio): the endpoint's /status and session list, and
 * new UiAutomator2 sessions (capabilities.ts builds what they ask for, WebdriverSession.ts drives them).
 */
import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import { HarnessError } from '../../domain/errors.js';
import { checkAppiumUrl, shownUrl } from '../../domain/guards.js';
import { sanitizeMessage } from '../../domain/sanitize.js';
import type { Secret } from '../../domain/secret.js';
import type { AutomationGateway, AutomationSession, Clock, Logger, SessionOptions } from '../../domain/ports.js';
import { SystemClock } from '../clock/SystemClock.js';
import { buildCapabilities, idleWaitOf } from './capabilities.js';
import { isConnectionFailure } from './driverErrors.js';
import { parseEndpointStatus } from './endpointStatus.js';
import { gridSessionError } from '../remote/seleniumGridErrors.js';
import { WebdriverSession, type DriverLike } from './WebdriverSession.js';

export type { DriverLike } from './WebdriverSession.js';

export type RemoteFactory = (options: Record<string, unknown>) => Promise<DriverLike>;

export interface WebdriverAutomationGatewayOptions {
  /** Without userinfo (config.ts takes it out): this URL appears in messages. */
  readonly url: string;
  /**
   * The harness started this Appium itself (no APPIUM_URL): when it stops answering, the next call
   * starts it again (ManagedAppium, on a new port), so the remedy is to retry, not to start Appium.
   */
  readonly managed?: boolean;
  /** Sent as appium:udid; null in remote mode without ANDROID_UDID: the endpoint picks the device. */
  readonly udid: string | null;
  /** Remote mode: the Authorization header sent with every request; never logged. */
  readonly authorization?: Secret | null;
  readonly connectTimeoutMs: number;
  readonly extraCapabilities?: Record<string, unknown>;
  readonly adbPort?: number;
  /**
   * A free local port for each new session's `appium:systemPort` (the port Appium forwards
   * to the UiAutomator2 server on the device). Sessions on several devices at once each get their
   * own; a session that is still closing keeps its port without blocking the next one. Absent, or
   * an `appium:systemPort` in the extra capabilities (the user's choice wins): not allocated here.
   */
  readonly systemPort?: () => Promise<number>;
  readonly logger: Logger;
  /** Defaults to the system clock; unit tests pass a fake. */
  readonly clock?: Clock;
  /** Defaults to webdriverio's `remote`; unit tests pass a fake driver factory. */
  readonly remote?: RemoteFactory;
}

/** How messages name the device when none was asked for (remote mode without ANDROID_UDID). */
const UNNAMED_DEVICE = 'chosen by the endpoint';

export class WebdriverAutomationGateway implements AutomationGateway {
  private readonly url: string;
  private readonly clock: Clock;

  constructor(private readonly options: WebdriverAutomationGatewayOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.clock = options.clock ?? new SystemClock();
  }

  private unavailable(cause?: unknown): HarnessError {
    const port = URL.canParse(this.url) ? new URL(this.url).port || '80' : '4723';
    if (this.options.authorization !== undefined) {
      // Remote mode: the endpoint is a Grid or a farm, not an Appium the user starts here.
      return new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The remote endpoint does not answer at ${shownUrl(this.url)}. Check APPIUM_URL, the network, and that the Grid or device farm is up, then retry.`,
        { cause },
      );
    }
    if (this.options.managed === true) {
      return new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The harness's own Appium (at ${shownUrl(this.url)}) stopped answering during this call. ` +
          'There is nothing to start: the harness starts its Appium again by itself at the next call (on a new port). Retry the call (a UI session it ran in has ended: open a new one with ui_session_open); ' +
          'if this keeps happening, run with ANDROID_MCP_LOG_LEVEL=debug to see why Appium exits.',
        { cause },
      );
    }
    return new HarnessError(
      'APPIUM_UNAVAILABLE',
      `Appium does not answer at ${shownUrl(this.url)} (APPIUM_URL). Start Appium so it answers at ${shownUrl(this.url)} (npx appium --address 127.0.0.1 --port ${port}, with the uiautomator2 driver installed), then retry.`,
      { cause },
    );
  }

  async status(): Promise<AutomationEndpointStatus> {
    const status = parseEndpointStatus(await this.getJson('/status'));
    if (status === null) {
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The server at ${shownUrl(this.url)} is neither Appium (its status names no Appium build version) nor a Selenium Grid. Point APPIUM_URL at an Appium 3 server, or at a Selenium Grid 4 hub that relays to one.`,
      );
    }
    return status;
  }

  async listSessionIds(): Promise<string[]> {
    // Appium 2 only knows the deprecated /sessions.
    const body = (await this.getJson('/appium/sessions', { missingIsNull: true })) ?? (await this.getJson('/sessions'));
    const value = (body as { value?: unknown } | null)?.value;
    if (!Array.isArray(value))
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `Appium at ${shownUrl(this.url)} answered its session list in an unexpected shape.`,
      );
    return value
      .map((entry) => (entry as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string');
  }

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    this.guardRemoteEndpoint();
    const target = new URL(this.url);
    const capabilities = buildCapabilities({
      udid: this.options.udid,
      idleTimeoutMs: options.idleTimeoutMs,
      extra: this.options.extraCapabilities,
      adbPort: this.options.adbPort,
      waitForIdleTimeoutMs: options.waitForIdleTimeoutMs,
      ...(this.options.systemPort && this.options.extraCapabilities?.['appium:systemPort'] === undefined
        ? { systemPort: await this.options.systemPort() }
        : {}),
    });
    const remote = this.options.remote ?? defaultRemote;
    let driver: DriverLike;
    try {
      driver = await remote({
        protocol: target.protocol === 'https:' ? 'https' : 'http',
        hostname: target.hostname,
        port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
        path: target.pathname || '/',
        ...(target.search === '' ? {} : { queryParams: Object.fromEntries(target.searchParams) }),
        ...this.authHeaders(),
        logLevel: 'silent',
        connectionRetryCount: 0,
        connectionRetryTimeout: this.options.connectTimeoutMs,
        capabilities,
      });
    } catch (error) {
      this.options.logger.error('Appium session creation failed', { cause: String(error) });
      // A Selenium Grid hub in front of Appium: its queue timing out is the device taken.
      const grid = gridSessionError(error, this.options.udid ?? UNNAMED_DEVICE);
      if (grid) throw grid;
      if (
        isConnectionFailure(
          error,
          String(error),
          /ECONNREFUSED|fetch failed|Failed to fetch|Unable to connect|compatible server running/i,
        )
      ) {
        throw this.unavailable(error);
      }
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `Appium could not create a UiAutomator2 session on ${this.options.udid ?? 'the device the endpoint picks'}: ${sanitizeMessage(error instanceof Error ? error.message : String(error), 'foreign')}. ${this.options.authorization !== undefined ? 'Check the capabilities (ANDROID_MCP_APPIUM_CAPS) and that the Grid or device farm has that device free, then retry.' : 'Check the Appium log, that the uiautomator2 driver is installed and that the device is listed by adb.'}`,
        { cause: error },
      );
    }
    this.options.logger.info('Appium session opened', {
      sessionId: driver.sessionId,
      newCommandTimeout: capabilities['appium:newCommandTimeout'],
      waitForIdleTimeout: idleWaitOf(capabilities),
    });
    return new WebdriverSession(driver, this.options.udid ?? UNNAMED_DEVICE, this.clock, this.options.logger, (error) =>
      this.unavailable(error),
    );
  }

  /** webdriverio's `headers` option: the Authorization header, when remote mode has one. */
  private authHeaders(): { headers?: Record<string, string> } {
    const authorization = this.options.authorization;
    return authorization ? { headers: { Authorization: authorization.reveal() } } : {};
  }

  /**
   * Remote mode sends credentials with every request: the endpoint guard runs here too, at the
   * last step before the network, so no use case that forgot the per-call guard can send them
   * over plain http beyond this machine.
   */
  private guardRemoteEndpoint(): void {
    if (this.options.authorization !== undefined) checkAppiumUrl(this.url, true);
  }

  private async getJson(path: string, options: { missingIsNull?: boolean } = {}): Promise<unknown> {
    this.guardRemoteEndpoint();
    let response: Response;
    const target = new URL(this.url);
    try {
      response = await fetch(`${target.origin}${target.pathname.replace(/\/+$/, '')}${path}${target.search}`, {
        signal: AbortSignal.timeout(Math.min(this.options.connectTimeoutMs, 10_000)),
        ...this.authHeaders(),
      });
    } catch (error) {
      throw this.unavailable(error);
    }
    if (response.status === 401 || response.status === 403) {
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The endpoint at ${shownUrl(this.url)} refused the credentials (HTTP ${response.status}). Check the user and key in APPIUM_URL (https://user:key@host/…) or ANDROID_MCP_REMOTE_AUTHORIZATION, then retry.`,
      );
    }
    if (response.status === 404 && options.missingIsNull) return null;
    if (!response.ok) throw this.unavailable(new Error(`HTTP ${response.status} from ${path}`));
    try {
      return await response.json();
    } catch (error) {
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The server at ${shownUrl(this.url)} did not answer ${path} with JSON; point APPIUM_URL at an Appium 3 server.`,
        { cause: error },
      );
    }
  }
}

async function defaultRemote(options: Record<string, unknown>): Promise<DriverLike> {
  // webdriverio logs through loglevel, whose info goes to stdout, which belongs to MCP. Loggers
  // created at import time read WDIO_LOG_LEVEL, and remote() only sets it when unset: force it.
  process.env.WDIO_LOG_LEVEL = 'silent';
  const { remote } = await import('webdriverio');
  const browser = await remote(options as unknown as Parameters<typeof remote>[0]);
  return browser as unknown as DriverLike;
}
