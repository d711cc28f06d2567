import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractSections, readmeTable, regenerate, replaceBlock } from '../../../scripts/tool-docs.js';
import { TOOL_DECLARATIONS } from '../../../src/mcp/tools/index.js';
import { REPO_ROOT } from '../../support/appium.js';

const read = (file: string) => readFileSync(`${REPO_ROOT}/${file}`, 'utf8');

describe('the tool tables written from the declarations', () => {
  it('rewrites only what lies between its markers', () => {
    const text = 'before\n<!-- tools:start -->\nold table\n<!-- tools:end -->\nafter\n';
    expect(replaceBlock(text, 'tools', 'new table')).toBe(
      'before\n<!-- tools:start -->\nnew table\n<!-- tools:end -->\nafter\n',
    );
  });

  it('refuses a file whose markers are missing, doubled or out of order', () => {
    for (const text of [
      'no markers',
      '<!-- tools:end --> <!-- tools:start -->',
      '<!-- tools:start --> <!-- tools:end --> <!-- tools:start --> <!-- tools:end -->',
    ])
      expect(() => replaceBlock(text, 'tools', 'x', 'README.md')).toThrow(/^README\.md: expected one/);
  });

  it('README.md and docs/reference/contract.md hold what the declarations write (npm run lint checks it too)', () => {
    expect(
      regenerate(read)
        .filter((result) => result.changed)
        .map((result) => result.file),
    ).toEqual([]);
  });

  it('a changed declaration shows as a difference', () => {
    const renamed = TOOL_DECLARATIONS.map((tool) =>
      tool.name === 'ui_tap' ? { ...tool, answer: `${tool.answer}, and more` } : tool,
    );
    expect(regenerate(read, renamed).map((result) => result.changed)).toEqual([true, true]);
  });

  it('names every tool with its toolset, and every parameter with its description in the contract', () => {
    const readme = readmeTable(TOOL_DECLARATIONS);
    const contract = contractSections(TOOL_DECLARATIONS);
    for (const tool of TOOL_DECLARATIONS) {
      expect(readme).toContain(`| \`${tool.name}\` | ${tool.toolset} |`);
      expect(contract).toContain(`#### \`${tool.name}\``);
    }
    expect(contract).toContain("| `session_id` (optional) | `string` | ui_session_open's id |");
    expect(contract).toContain(
      '| `direction` | `"up"\\|"down"\\|"left"\\|"right"` | down: show what is further down |',
    );
  });
});
