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
  ])('strips host paths and stacks from %j', (input, secret) => {
    const out = sanitizeMessage(input);
    expect(out).not.toContain(secret);
  });

  it('keeps relative evidence paths, URLs and prose', () => {
    const message =
      'Saved artifacts/20261130-171203-482911-ui-tap.png; start Appium at http://127.0.0.1:4723/status ' +
      '(or http://[::1]:4723/wd/hub), read artifact://20261130-171203-482911-ui-tap.png and/or retry.';
    expect(sanitizeMessage(message)).toBe(message);
  });
});
