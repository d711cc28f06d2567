/**
 * The virtual device's banner tells a user how to point a harness at it: the exact "env" block
 * and the `claude mcp add` line, for the port and the adb server it was started with.
 */
import { describe, expect, it } from 'vitest';
import { clientInstructions, harnessEnvFor } from '../../src/cli.js';

const NODE_ENTRY = ['node', '/opt/harness/dist/index.js'];

function envLine(lines: readonly string[]): Record<string, string> {
  const line = lines.find((l) => l.trimStart().startsWith('"env": '));
  if (!line) throw new Error(`no "env" line in\n${lines.join('\n')}`);
  return JSON.parse(line.trim().slice('"env": '.length)) as Record<string, string>;
}

function claudeLine(lines: readonly string[]): string {
  const line = lines.find((l) => l.trimStart().startsWith('claude mcp add '));
  if (!line) throw new Error(`no claude line in\n${lines.join('\n')}`);
  return line.trim();
}

describe('harnessEnvFor', () => {
  it('a custom port: the 127.0.0.1:N serial, allowed explicitly (the guard refuses it otherwise)', () => {
    expect(harnessEnvFor(40555, undefined)).toEqual({
      ANDROID_UDID: '127.0.0.1:40555',
      ANDROID_MCP_ALLOW_SERIALS: '127.0.0.1:40555',
    });
  });

  it('port 5555: emulator-5554, which the guard accepts without an allow-list', () => {
    expect(harnessEnvFor(5555, undefined)).toEqual({ ANDROID_UDID: 'emulator-5554' });
  });

  it('a private adb server (ANDROID_ADB_SERVER_PORT set where the device runs) is passed on', () => {
    expect(harnessEnvFor(40555, '5099')).toEqual({
      ANDROID_UDID: '127.0.0.1:40555',
      ANDROID_MCP_ALLOW_SERIALS: '127.0.0.1:40555',
      ANDROID_ADB_SERVER_PORT: '5099',
    });
    expect(harnessEnvFor(5555, '5099')).toEqual({ ANDROID_UDID: 'emulator-5554', ANDROID_ADB_SERVER_PORT: '5099' });
  });

  it('an ANDROID_ADB_SERVER_PORT that is no port is not copied into the block', () => {
    for (const junk of ['', 'abc', '0', '70000', '5037; rm -rf /', ' 5037']) {
      expect(harnessEnvFor(40555, junk), JSON.stringify(junk)).not.toHaveProperty('ANDROID_ADB_SERVER_PORT');
    }
  });
});

describe('clientInstructions', () => {
  it('prints the env block as JSON to paste and the same variables in the claude line, name first', () => {
    const lines = clientInstructions({ port: 40555, adbServerPort: '5099', serverCommand: NODE_ENTRY });
    const env = envLine(lines);
    expect(env).toEqual(harnessEnvFor(40555, '5099'));
    expect(claudeLine(lines)).toBe(
      'claude mcp add android --env ANDROID_UDID=127.0.0.1:40555 --env ANDROID_MCP_ALLOW_SERIALS=127.0.0.1:40555 --env ANDROID_ADB_SERVER_PORT=5099 -- node /opt/harness/dist/index.js',
    );
    expect(lines.join('\n')).toMatch(/adb server on 5099/);
  });

  it('without a private adb server it says which one the block assumes', () => {
    const lines = clientInstructions({ port: 40555, adbServerPort: undefined, serverCommand: NODE_ENTRY });
    expect(envLine(lines)).not.toHaveProperty('ANDROID_ADB_SERVER_PORT');
    expect(lines.join('\n')).toMatch(/adb server on 5037, or start the device with ANDROID_ADB_SERVER_PORT=N/);
  });

  it('quotes a server path the shell would split', () => {
    const lines = clientInstructions({
      port: 5555,
      adbServerPort: undefined,
      serverCommand: ['node', "/Users/o'neil/My Harness/dist/index.js"],
    });
    expect(claudeLine(lines)).toBe(
      `claude mcp add android --env ANDROID_UDID=emulator-5554 -- node '/Users/o'\\''neil/My Harness/dist/index.js'`,
    );
  });
});
