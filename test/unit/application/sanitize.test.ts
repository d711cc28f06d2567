import { describe, expect, it } from 'vitest';
import { sanitizeMessage } from '../../../src/application/sanitize.js';

describe('sanitizeMessage', () => {
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

  it('keeps URL paths and the WebDriver endpoints it names, which are not host paths (issue 11)', () => {
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
