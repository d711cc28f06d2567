/**
 * The agents' skill (skills/android/SKILL.md) is what a shell agent pays to start instead of the
 * MCP catalogue: it must parse as an Agent Skill (front matter with name and description), teach
 * only verbs the CLI has, and cost well under the default catalogue in o200k tokens (the figure
 * docs/guide/cli.md quotes; the budget is a test, as the catalogue's is).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { parseVerb } from '../../../src/cli/verbs.js';
import { REPO_ROOT } from '../../support/appium.js';
import { buildHarness } from '../../support/fakes/harness.js';

const SKILL = readFileSync(path.join(REPO_ROOT, 'skills', 'android', 'SKILL.md'), 'utf8');
/** The skill's own budget: a third of the default catalogue's 2,000-token budget. */
const SKILL_MAX_TOKENS = 700;

async function catalogueTokens(): Promise<number> {
  const h = buildHarness();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await h.container.server.connect(serverSide);
  const client = new Client({ name: 'skill-budget', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return encode(JSON.stringify(await client.listTools())).length;
  } finally {
    await client.close();
    await h.container.server.close();
  }
}

describe('the android skill', () => {
  it('is an Agent Skill: front matter with a name and a description, then the body', () => {
    const match = /^---\nname: ([a-z0-9-]+)\ndescription: (.+)\n---\n/.exec(SKILL);
    expect(match?.[1]).toBe('android');
    expect(match?.[2]?.length).toBeGreaterThan(40);
    expect(match?.[2]?.length).toBeLessThanOrEqual(1024);
  });

  it('teaches only commands the CLI parses', () => {
    const commands = [...SKILL.matchAll(/`cli ([^`]+)`/g)].map((m) => m[1] ?? '');
    expect(commands.length).toBeGreaterThan(8);
    for (const command of commands) {
      // Quoted words as a shell would split them (the skill quotes one word at a time).
      const words = [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
      const verbWords = words.filter((w) => w !== '--json' && !w.includes('…'));
      if (verbWords.length === 0) continue;
      expect(() => parseVerb(verbWords), command).not.toThrow();
    }
  });

  it(`costs at most ${SKILL_MAX_TOKENS} o200k tokens, less than half the default catalogue`, async () => {
    const skill = encode(SKILL).length;
    const catalogue = await catalogueTokens();
    // eslint-disable-next-line no-console -- the figures are part of the report
    console.log(`skill: ${skill} o200k tokens; default catalogue (tools/list): ${catalogue}`);
    expect(skill).toBeLessThanOrEqual(SKILL_MAX_TOKENS);
    expect(skill * 2).toBeLessThan(catalogue);
  });
});
