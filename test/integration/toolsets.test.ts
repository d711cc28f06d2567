/**
 * Black box: the built bin's toolsets. No device is needed for the catalogue: an
 * unknown name stops the bin at start with the valid names on stderr; the flag and the
 * variable change what tools/list and the instructions show.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'dist', 'index.js');
let scratch: string;

function env(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'ANDROID_MCP_TOOLSETS') out[key] = value;
  out.PATH = path.join(scratch, 'empty-bin');
  out.APPIUM_URL = 'http://127.0.0.1:9';
  out.ANDROID_MCP_ARTIFACTS_DIR = path.join(scratch, 'artifacts');
  out.ANDROID_MCP_LOG_LEVEL = 'warn';
  return { ...out, ...extra };
}

async function catalogue(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ names: string[]; instructions: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...args],
    env: env(extra),
    cwd: scratch,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'toolsets', version: '1' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return { names: tools.map((t) => t.name), instructions: client.getInstructions() ?? '' };
  } finally {
    await client.close();
  }
}

beforeAll(() => {
  if (!existsSync(bin))
    execFileSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      { cwd: repoRoot },
    );
  scratch = mkdtempSync(path.join(os.tmpdir(), 'harness-toolsets-'));
  mkdirSync(path.join(scratch, 'empty-bin'));
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('toolsets on the bin', () => {
  it('an unknown toolset stops the bin at start: exit 2, the valid names on stderr, nothing on stdout', () => {
    for (const [args, extra, source] of [
      [['--toolsets', 'device,sudo'], {}, '--toolsets'],
      [['serve', '--toolsets=sudo'], {}, '--toolsets'],
      [[], { ANDROID_MCP_TOOLSETS: 'sudo' }, 'ANDROID_MCP_TOOLSETS'],
    ] as const) {
      const run = spawnSync(process.execPath, [bin, ...args], {
        env: env(extra),
        cwd: scratch,
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(
        `${source}: unknown toolset "sudo". The toolsets are: core, apps, device, wait, diagnostics, all`,
      );
    }
  });
  it('by default lists the twelve; the flag (over the variable) and the variable switch sets on', async () => {
    const core = await catalogue([]);
    expect(core.names).toHaveLength(12);
    const all = await catalogue(['--toolsets', 'all']);
    expect(all.names.slice(0, 12)).toEqual(core.names);
    expect(all.names.length).toBeGreaterThan(12);
    const flagWins = await catalogue(['--toolsets=core'], { ANDROID_MCP_TOOLSETS: 'all' });
    expect(flagWins.names).toEqual(core.names);
    const fromEnv = await catalogue([], { ANDROID_MCP_TOOLSETS: 'all' });
    expect(fromEnv.names).toEqual(all.names);
    for (const name of all.names.slice(12)) {
      expect(core.instructions).not.toContain(name);
    }
    const diagnostics = await catalogue(['--toolsets', 'diagnostics']);
    expect(diagnostics.names).toEqual([...core.names, 'app_logs', 'app_crashes']);
    expect(diagnostics.instructions).toMatch(/app_logs.*app_crashes/);
  });
});
