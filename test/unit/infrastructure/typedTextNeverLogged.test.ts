/**
 * The text given to ui_type_text never appears in the log at info or above,
 * whatever the driver does with it. The real WebdriverAutomationGateway runs (its error
 * mapping and logging are what is under test) over a scripted driver whose errors quote the
 * value the way UiAutomator2 does ("Cannot set the element to '…'"); everything above it is
 * the real container: ceilings, session broker, evidence, the OperationRunner's logging.
 */
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../../src/domain/envelope.js';
import type { DriverLike } from '../../../src/infrastructure/appium/WebdriverAutomationGateway.js';
import { buildDriverHarness } from '../../support/fakes/harness.js';
import type { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

const SECRET = `s3cr3t-"pa'ss" 🙂 مرحبا 你好`;
const MARKERS = [SECRET, JSON.stringify(SECRET).slice(1, -1), 's3cr3t'];

type SendKeys = (text: string) => Promise<unknown>;

function wdError(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

class ScriptedDriver implements DriverLike {
  readonly sessionId = 'sess-redaction';
  constructor(private readonly sendKeys: SendKeys) {}
  async findElement() {
    return { 'element-6066-11e4-a52e-4f735466cecf': 'el-1' };
  }
  async findElements() {
    return [{ 'element-6066-11e4-a52e-4f735466cecf': 'el-1' }];
  }
  async getElementText() {
    return 'Search';
  }
  async getElementAttribute() {
    return null;
  }
  async elementClick() {}
  async executeScript() {
    return null;
  }
  async elementClear() {}
  elementSendKeys(_id: string, text: string) {
    return this.sendKeys(text);
  }
  async performActions() {}
  async releaseActions() {}
  async getWindowRect() {
    return { width: 1080, height: 2400 };
  }
  async back() {}
  async setOrientation() {}
  async getPageSource() {
    return '<hierarchy/>';
  }
  async takeScreenshot() {
    return '';
  }
  async deleteSession() {}
}

async function typeWith(sendKeys: SendKeys): Promise<{ envelope: Envelope; logger: RecordingLogger }> {
  const h = buildDriverHarness({ actionTimeoutMs: 2_000 }, () => async () => new ScriptedDriver(sendKeys), 3);
  const envelope = await h.envelope('ui_type_text', { selector: { resource_id: 'com.app:id/search' }, text: SECRET });
  return { envelope, logger: h.logger };
}

const SCENARIOS: [string, SendKeys, string | null][] = [
  ['typing succeeds', async () => undefined, null],
  [
    'UiAutomator2 quotes the value',
    (text) =>
      Promise.reject(
        wdError(
          'invalid element state',
          `Cannot set the element to '${text}'. Did you interact with the correct element?`,
        ),
      ),
    // The element was found; it refused the text.
    'UI_ELEMENT_NOT_EDITABLE',
  ],
  [
    'an unknown server-side error quotes it JSON-escaped',
    (text) =>
      Promise.reject(
        wdError(
          'unknown error',
          `An unknown server-side error occurred while processing the command. Original error: {"text":${JSON.stringify(text)}}`,
        ),
      ),
    // The server could not perform an action: its own code (contract, "Error codes"), not an internal error.
    'UI_ACTION_FAILED',
  ],
  [
    'the session died while typing',
    (text) => Promise.reject(wdError('invalid session id', `invalid session id: could not type ${text}`)),
    'APPIUM_UNAVAILABLE',
  ],
  ['the driver rejects with a bare string', (text) => Promise.reject(`failed to type ${text}`), 'INTERNAL_ERROR'],
  [
    'a programming error quotes it',
    (text) => Promise.reject(new TypeError(`Cannot read properties of undefined (reading '${text}')`)),
    'INTERNAL_ERROR',
  ],
  ['typing hangs past the ceiling', () => new Promise(() => undefined), 'OPERATION_TIMEOUT'],
];

describe('the typed text never reaches the log at info or above', () => {
  for (const [name, sendKeys, code] of SCENARIOS) {
    it(name, async () => {
      const { envelope, logger } = await typeWith(sendKeys);
      expect(envelope.error?.code ?? null).toBe(code);
      if (code === null) expect(envelope.data).toMatchObject({ characters_sent: [...SECRET].length });
      const loud = logger.entries.filter((entry) => entry.level !== 'debug');
      const leaks = loud.filter((entry) =>
        MARKERS.some((marker) => `${entry.message} ${JSON.stringify(entry.fields ?? {})}`.includes(marker)),
      );
      expect(leaks).toEqual([]);
      // Nor in what the model is told.
      expect(MARKERS.some((marker) => JSON.stringify(envelope).includes(marker))).toBe(false);
      // The failure paths did log something: the check above looked at real lines.
      if (code !== null) expect(loud.length).toBeGreaterThan(0);
    });
  }
});
