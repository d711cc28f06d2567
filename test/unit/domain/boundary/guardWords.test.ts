import { describe, expect, it } from 'vitest';
import { operationIdOf } from '../../../../src/domain/envelope.js';
import { HarnessError, systemErrorCode } from '../../../../src/domain/errors.js';
import { checkAppiumUrl, checkSerial, isAllowedSerial, shownUrl } from '../../../../src/domain/guards.js';

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return (error as HarnessError).message;
  }
  throw new Error('expected a refusal');
}

describe('the device guard, word for word', () => {
  it('names the serial and both ways out', () => {
    expect(message(() => checkSerial('R58M12345', []))).toBe(
      "The serial 'R58M12345' is not an emulator serial (emulator-<port>), so the harness refuses to use it. " +
        'Set ANDROID_UDID to an emulator serial from `adb devices`, or list this serial in ANDROID_MCP_ALLOW_SERIALS (comma-separated) to opt in consciously.',
    );
  });

  it('shows a serial with its control characters replaced, cut at 80 characters', () => {
    expect(message(() => checkSerial('a\nb\u0000c\u007f', []))).toMatch(/^The serial 'a\?b\?c\?' is not/);
    expect(message(() => checkSerial('s'.repeat(80), []))).toContain(`'${'s'.repeat(80)}' is not`);
    expect(message(() => checkSerial('s'.repeat(81), []))).toContain(`'${'s'.repeat(80)}…' is not`);
  });

  it('isAllowedSerial asks the same question', () => {
    expect(isAllowedSerial('emulator-5554', [])).toBe(true);
    expect(isAllowedSerial('127.0.0.1:5555', ['127.0.0.1:5555'])).toBe(true);
    expect(isAllowedSerial('R58M12345', [])).toBe(false);
  });
});

describe('the endpoint guard, word for word', () => {
  it('a value that is not a URL', () => {
    expect(message(() => checkAppiumUrl('http://'))).toBe(
      "APPIUM_URL 'http://' is not a URL. Set it to something like http://127.0.0.1:4723 or unset it.",
    );
  });

  it('remote mode refuses plain http beyond this machine, and says where to go', () => {
    expect(message(() => checkAppiumUrl('http://hub.example.com/wd/hub', true))).toBe(
      "In remote mode APPIUM_URL must be https: (http: only on 127.0.0.1, localhost or [::1]); 'http://hub.example.com/wd/hub' is refused, since credentials would cross the network in clear. " +
        'Use the https:// endpoint your Grid or device farm gives.',
    );
  });

  it('local mode refuses anything but loopback http, and says how to run Appium here', () => {
    expect(message(() => checkAppiumUrl('http://10.0.0.5:4723'))).toBe(
      "APPIUM_URL must be http: on 127.0.0.1, localhost or [::1]; 'http://10.0.0.5:4723' is refused. " +
        'Run Appium on this machine (npx appium --address 127.0.0.1 --port 4723) and point APPIUM_URL at it, ' +
        'or set ANDROID_MCP_REMOTE=1 for an https: Grid or device farm (docs/guide/many-devices.md, "Remote mode").',
    );
  });
});

describe('shownUrl: origin and path only', () => {
  it('drops userinfo, query and fragment, and trailing slashes of the path', () => {
    expect(shownUrl('https://user:key@hub.example.com/wd/hub///?accessKey=k#x')).toBe('https://hub.example.com/wd/hub');
    expect(shownUrl('http://127.0.0.1:4723/')).toBe('http://127.0.0.1:4723');
  });

  it('a URL that does not parse: userinfo redacted, query and fragment cut, the rest as written', () => {
    expect(shownUrl('http://user:key@[bad/wd?accessKey=k')).toBe('http://[redacted]@[bad/wd');
    expect(shownUrl('http://[bad/wd#frag')).toBe('http://[bad/wd');
    // A line break in the query does not stop the cut: the key after it was shown before.
    expect(shownUrl('http://[bad/wd?accessKey=k3y\nx')).toBe('http://[bad/wd');
    expect(shownUrl('not a url')).toBe('not a url');
    expect(shownUrl('no//userinfo@here?')).toBe('no//[redacted]@here');
  });

  it('a scheme the URL standard does not know: what was written, host included', () => {
    expect(shownUrl('localhost:4723/wd/')).toBe('localhost:4723/wd');
    expect(shownUrl('grid://user:key@hub.example.com:4444/wd/hub/?k=v')).toBe('grid://hub.example.com:4444/wd/hub');
  });
});

describe('envelope and errors', () => {
  it('an operation id takes exactly twelve bytes, and says so', () => {
    expect(() => operationIdOf(new Uint8Array(11))).toThrow(new RangeError('an operation id takes 12 bytes'));
    expect(operationIdOf(new Uint8Array(12).fill(31))).toBe('z'.repeat(12));
  });

  it('a HarnessError names itself', () => {
    expect(new HarnessError('INTERNAL_ERROR', 'x').name).toBe('HarnessError');
  });

  it("a system error's code: its own, else its cause's, else none", () => {
    expect(systemErrorCode({ code: 'ENOENT' })).toBe('ENOENT');
    expect(systemErrorCode({ code: 'EEXIST', cause: { code: 'ECONNREFUSED' } })).toBe('EEXIST');
    expect(systemErrorCode({ cause: { code: 'ECONNREFUSED' } })).toBe('ECONNREFUSED');
    expect(systemErrorCode({ code: 42 })).toBeUndefined();
    expect(systemErrorCode(null)).toBeUndefined();
  });
});
