/**
 * docs/usage.md, "Through a Selenium Grid", shows the relay node's TOML a user copies; the Grid
 * integration test starts its nodes with the TOML of test/support/grid.ts. Both must be one text,
 * so what the docs show is what ran against the real Grid.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';
import { relayNodeToml } from '../../support/grid.js';

describe('docs/usage.md: the Selenium Grid relay TOML', () => {
  it('is the very TOML the Grid test starts its relay nodes with', () => {
    const usage = readFileSync(join(REPO_ROOT, 'docs', 'usage.md'), 'utf8');
    const section = usage.slice(usage.indexOf('### Through a Selenium Grid'));
    const block = /```toml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block, 'a ```toml block in the section').toBeDefined();
    const unindented = (block ?? '').split('\n').map((line) => line.replace(/^ {3}/, '')).join('\n');
    expect(unindented).toBe(relayNodeToml({ appiumUrl: 'http://127.0.0.1:4723', udid: 'emulator-5554' }));
  });
});
