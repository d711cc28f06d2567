import { describe, expect, it } from 'vitest';
import { sanitizeMessage, withoutText } from '../../../src/domain/sanitize.js';

describe('sanitizeMessage: every message', () => {
  it.each([
    ["ENOENT: no such file or directory, open '/home/alice/project/artifacts/x.png'", '/home/alice'],
    ['failed at /usr/lib/node_modules/foo/index.js:12:3', '/usr/lib'],
    ['cannot read C:\\Users\\bob\\secret.txt', 'C:\\Users'],
    ['see file:///tmp/x/y.log', '/tmp/x'],
    ['Error: boom\n    at Object.<anonymous> (/srv/app/index.js:1:1)\n    at Module._compile', 'Module._compile'],
    ['config in ~/.config/harness/settings.json', '~/.config'],
    // A colon right before the path: adb and Node print `error:/…`, single-slash file URLs, Windows with forward slashes.
    ['adb: error:/home/alice/secret.txt does not exist', '/home/alice'],
    ['cannot load file:/home/alice/project/x.js', '/home/alice'],
    ['cannot read C:/Users/bob/secret.txt', '/Users/bob'],
    // Endpoint-looking names are kept only when they are exactly an endpoint.
    ['open /home/alice/status failed', '/home/alice'],
    ['open /status/../../home/alice/x failed', '/home/alice'],
    ['open /session/../../home/alice/x failed', '/home/alice'],
    ['open /statuses/alice.txt failed', '/statuses'],
    // A host path in a URL's query is still a host path.
    ['Appium at http://127.0.0.1:4723/?log=/home/alice/appium.log failed', '/home/alice'],
    ['see file:///home/alice/x.log?line=3', '/home/alice'],
  ])('strips host paths and stacks from %j', (input, secret) => {
    const out = sanitizeMessage(input);
    expect(out).not.toContain(secret);
  });

  it('keeps URL paths and the WebDriver endpoints it names, which are not host paths', () => {
    for (const message of [
      'The server at http://127.0.0.1:4723 answered /status without an Appium build version; it does not look like Appium. Point APPIUM_URL at an Appium 3 server.',
      'Appium 2 answers GET /sessions, Appium 3 GET /appium/sessions; /wd/hub/status and /wd/hub are the legacy base.',
      'POST /session/4f1c-9a/element/00000000-0000-0010-ffff-ffff00000012/click failed: no such element.',
      'Appium does not answer at http://[::1]/wd/hub/status (or http://localhost/status?x=1#top).',
      'Start Appium so it answers at http://127.0.0.1:4723/status, then retry.',
      // The harness's own routes a REST refusal points at.
      "Invalid request body: it is not JSON. Send a JSON object of the tool's arguments (see /openapi.json).",
      'Not found: MCP is served at /mcp, the REST API at /devices.',
    ]) {
      expect(sanitizeMessage(message)).toBe(message);
    }
  });

  it('keeps relative evidence paths, URLs and prose', () => {
    const message =
      'Saved artifacts/20261130-171203-482911-ui-tap.png; start Appium at http://127.0.0.1:4723/status ' +
      '(or http://[::1]:4723/wd/hub), read artifact://20261130-171203-482911-ui-tap.png and/or retry.';
    expect(sanitizeMessage(message)).toBe(message);
  });
});

describe('sanitizeMessage: one rule at a time', () => {
  it('cuts a stack trace: its first frame and everything after it', () => {
    expect(sanitizeMessage('Error: boom\n    at f (x.js:1:1)\nCaused by: more\n    at g (y.js:2:2)')).toBe(
      'Error: boom',
    );
  });

  it('hides a Windows path, a home path and an absolute POSIX path', () => {
    expect(sanitizeMessage('read C:\\Users\\bob\\x.txt')).toBe('read <path>');
    expect(sanitizeMessage('read ~/notes/x.txt')).toBe('read <path>');
    expect(sanitizeMessage('read /home/bob/x.txt now')).toBe('read <path> now');
  });

  it('hides a file URL whole, as the host path it is', () => {
    expect(sanitizeMessage('see file:///tmp/x.log')).toBe('see <path>');
  });

  it('keeps a URL but not the credentials written into it', () => {
    expect(sanitizeMessage('no answer at https://alice:k3y@hub.example.com/wd/hub')).toBe(
      'no answer at https://[redacted]@hub.example.com/wd/hub',
    );
    expect(sanitizeMessage('no answer at https://k3y@hub.example.com/wd/hub')).not.toContain('k3y');
  });

  it('keeps the endpoints it names, a lone slash, and a sentence ending after them', () => {
    expect(sanitizeMessage('GET /status. Then / and /wd/hub/sessions;')).toBe(
      'GET /status. Then / and /wd/hub/sessions;',
    );
  });

  it('cuts a long message at 1000 characters and says so', () => {
    const out = sanitizeMessage('x'.repeat(1500));
    expect(out).toBe(`${'x'.repeat(1000)}…`);
  });
});

describe("sanitizeMessage: a foreign message (the driver's, a Grid's)", () => {
  it('goes through every rule: paths, Windows paths, stack frames', () => {
    const out = sanitizeMessage(
      'Error at /usr/lib/node_modules/appium/x.js and C:\\Users\\me\\sdk for http://127.0.0.1:4723/x\n    at foo (/a/b.js:1:2)',
      'foreign',
    );
    expect(out).not.toMatch(/usr\/lib|Users|127\.0\.0\.1|b\.js/);
  });

  it('hides every URL: it names hosts the user never configured (a node, a farm)', () => {
    expect(
      sanitizeMessage('Could not start a session on http://node-7.grid.internal:4723/wd/hub?token=abc', 'foreign'),
    ).toBe('Could not start a session on <url>');
  });

  it('keeps its first two lines, joined, at most 240 characters', () => {
    expect(sanitizeMessage('one\ntwo\nthree', 'foreign')).toBe('one two');
    expect(sanitizeMessage('y'.repeat(400), 'foreign')).toBe('y'.repeat(240));
  });

  it('a harness message keeps its URLs and its lines', () => {
    expect(sanitizeMessage('one\nStart Appium at http://127.0.0.1:4723/status')).toBe(
      'one\nStart Appium at http://127.0.0.1:4723/status',
    );
  });
});

describe('withoutText', () => {
  it('cuts the typed text, raw and JSON-escaped, out of the message and the stack', () => {
    const typed = 'p"ss\nword';
    const error = new Error(`Cannot set the element to '${typed}' (${JSON.stringify(typed)})`);
    const out = withoutText(error, typed) as Error;
    expect(out.message).not.toContain('ss');
    expect(out.stack).not.toContain('ss\nword');
    expect(out.message).toContain('<typed text>');
  });

  it('replaces a frozen error by a plain one with the same name', () => {
    const frozen = Object.freeze(Object.assign(new Error('typed hunter2 here'), { name: 'invalid element state' }));
    const out = withoutText(frozen, 'hunter2') as Error;
    expect(out).not.toBe(frozen);
    expect(out.name).toBe('invalid element state');
    expect(out.message).toBe('typed <typed text> here');
  });

  it('leaves an error alone when nothing was typed, and scrubs a plain string', () => {
    const error = new Error('x');
    expect(withoutText(error, '')).toBe(error);
    expect(withoutText('said secret', 'secret')).toBe('said <typed text>');
  });
});
