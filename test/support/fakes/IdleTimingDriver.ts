import type { Clock, TimerHandle } from '../../../src/domain/ports.js';
import type { DriverLike, RemoteFactory } from '../../../src/infrastructure/appium/WebdriverAutomationGateway.js';
import { settingsAppsDump } from './screens.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';

/** webdriverio's error for a session Appium no longer holds (measured against Appium 3.8: HTTP 404). */
function invalidSession(sessionId: string, method: string): Error {
  const error = new Error(
    `WebDriverError: A session is either terminated or not started when running "http://127.0.0.1:4723/session/${sessionId}" with method "${method}"`,
  );
  error.name = 'invalid session id';
  return error;
}

/**
 * A driver behind the real WebdriverAutomationGateway that keeps Appium's own idle timeout on
 * a clock, as Appium's base driver does (`executeCommand` in appium/appium
 * packages/base-driver/lib/basedriver/driver.ts): the timer is cleared when a command starts
 * and restarted, at `appium:newCommandTimeout` seconds, when it ends; when it fires Appium
 * deletes the session, and every later command, the delete included, is `invalid session id`.
 * A newCommandTimeout of 0 disables it, as in Appium. Each element found is a new id.
 */
export class IdleTimingDriver implements DriverLike {
  readonly sessionId: string;
  /** Set once Appium dropped the session on its own (its newCommandTimeout fired). */
  droppedByTimeout = false;
  deleted = false;
  readonly commands: string[] = [];
  private timer: TimerHandle | null = null;
  private elementCounter = 0;

  constructor(
    private readonly clock: Clock,
    readonly capabilities: Record<string, unknown>,
    sessionId: string,
  ) {
    this.sessionId = sessionId;
    this.restartTimer();
  }

  /** Appium's newCommandTimeout for this session, in ms (0 = never). */
  get newCommandTimeoutMs(): number {
    const seconds = this.capabilities['appium:newCommandTimeout'];
    return typeof seconds === 'number' ? seconds * 1000 : 60_000;
  }

  private restartTimer(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.newCommandTimeoutMs <= 0 || this.deleted) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.deleted = true;
      this.droppedByTimeout = true;
    }, this.newCommandTimeoutMs);
  }

  private async command<T>(name: string, method: string, answer: () => T): Promise<T> {
    this.commands.push(name);
    if (this.deleted) throw invalidSession(this.sessionId, method);
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    await Promise.resolve();
    const value = answer();
    this.restartTimer();
    return value;
  }

  findElement(): Promise<unknown> {
    return this.command('findElement', 'POST', () => ({ [W3C]: `el-${++this.elementCounter}` }));
  }
  findElements(): Promise<unknown[]> {
    return this.command('findElements', 'POST', () => [{ [W3C]: `el-${++this.elementCounter}` }]);
  }
  getElementText(): Promise<string> {
    return this.command('getElementText', 'GET', () => 'Calendar');
  }
  getElementAttribute(): Promise<string | null> {
    return this.command('getElementAttribute', 'GET', () => null);
  }
  elementClick(): Promise<unknown> {
    return this.command('elementClick', 'POST', () => null);
  }
  executeScript(): Promise<unknown> {
    return this.command('executeScript', 'POST', () => null);
  }
  elementClear(): Promise<unknown> {
    return this.command('elementClear', 'POST', () => null);
  }
  elementSendKeys(): Promise<unknown> {
    return this.command('elementSendKeys', 'POST', () => null);
  }
  performActions(): Promise<unknown> {
    return this.command('performActions', 'POST', () => null);
  }
  releaseActions(): Promise<unknown> {
    return this.command('releaseActions', 'DELETE', () => null);
  }
  getWindowRect(): Promise<{ width: number; height: number }> {
    return this.command('getWindowRect', 'GET', () => ({ width: 1080, height: 2400 }));
  }
  back(): Promise<unknown> {
    return this.command('back', 'POST', () => null);
  }
  setOrientation(_orientation: string): Promise<unknown> {
    return this.command('setOrientation', 'POST', () => null);
  }
  getPageSource(): Promise<string> {
    return this.command('getPageSource', 'GET', () => settingsAppsDump());
  }
  takeScreenshot(): Promise<string> {
    return this.command('takeScreenshot', 'GET', () => '');
  }
  async deleteSession(): Promise<unknown> {
    this.commands.push('deleteSession');
    if (this.deleted) throw invalidSession(this.sessionId, 'DELETE');
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.deleted = true;
    return null;
  }
}

/** A `remote` for the gateway: every session it creates is an IdleTimingDriver, kept in `drivers`. */
export function idleTimingRemote(clock: Clock): { remote: RemoteFactory; drivers: IdleTimingDriver[] } {
  const drivers: IdleTimingDriver[] = [];
  const remote: RemoteFactory = async (options) => {
    const capabilities = (options.capabilities ?? {}) as Record<string, unknown>;
    const driver = new IdleTimingDriver(clock, capabilities, `appium-${drivers.length + 1}`);
    drivers.push(driver);
    return driver;
  };
  return { remote, drivers };
}
