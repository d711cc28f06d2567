/**
 * docs/guide/usage.md, "Through a Selenium Grid", and docs/guide/many-devices.md, "Selenium Grid 4", show the
 * relay nodes' TOML a user copies; the Grid integration tests start their nodes with the TOML of
 * test/support/grid.ts. Both must be one text, so what the docs show is what ran against the real Grid.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';
import { relayNodeToml } from '../../support/grid.js';

describe('docs/guide/usage.md: the Selenium Grid relay TOML', () => {
  it('is the very TOML the Grid test starts its relay nodes with', () => {
    const usage = readFileSync(join(REPO_ROOT, 'docs', 'guide', 'usage.md'), 'utf8');
    const section = usage.slice(usage.indexOf('### Through a Selenium Grid'));
    const block = /```toml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block, 'a ```toml block in the section').toBeDefined();
    const unindented = (block ?? '')
      .split('\n')
      .map((line) => line.replace(/^ {3}/, ''))
      .join('\n');
    expect(unindented).toBe(relayNodeToml({ appiumUrl: 'http://127.0.0.1:4723', udid: 'emulator-5554' }));
  });
});

/** The ```toml blocks of a section (up to the next `## ` heading), their three-space indent removed. */
function tomlBlocks(file: string, heading: string): string[] {
  const text = readFileSync(join(REPO_ROOT, 'docs', 'guide', file), 'utf8');
  const start = text.indexOf(heading);
  expect(start, `${heading} in docs/guide/${file}`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length);
  const end = rest.search(/^## /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```toml\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^ {3}/, ''))
      .join('\n'),
  );
}

describe('docs/guide/many-devices.md: one relay TOML per device', () => {
  it('each is the very TOML the Grid tests start a relay node with, for that device and its Appium', () => {
    expect(tomlBlocks('many-devices.md', '## Selenium Grid 4\n')).toEqual([
      relayNodeToml({ appiumUrl: 'http://127.0.0.1:4723', udid: 'emulator-5554' }),
      relayNodeToml({ appiumUrl: 'http://127.0.0.1:4725', udid: 'emulator-5556' }),
    ]);
  });
});
