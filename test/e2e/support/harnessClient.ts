/**
 * The harness as a real MCP client sees it: `node dist/index.js` spawned over real stdio,
 * driven through the SDK's Client + StdioClientTransport. Every answer is checked for the
 * one envelope of the contract (structuredContent and the text block carry the same object).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OPERATION_ID_PATTERN } from '../../../src/domain/envelope.js';
import { REPO_ROOT } from '../../support/appium.js';
import { awaitExitOrKill } from '../../support/processes.js';
import type { WireEnvelope } from '../../support/wireEnvelope.js';

export type { WireEnvelope } from '../../support/wireEnvelope.js';

export interface ToolAnswer {
  readonly envelope: WireEnvelope;
  readonly result: CallToolResult;
  /** Wall-clock time of the call as the client saw it. */
  readonly elapsedMs: number;
}

export const BUILT_SERVER = join(REPO_ROOT, 'dist', 'index.js');

export function assertBuilt(): void {
  if (!existsSync(BUILT_SERVER)) {
    throw new Error(`${BUILT_SERVER} is missing: run \`npm run build\` first (npm test does it).`);
  }
}

/**
 * Checks the envelope shape every answer must have and returns it. Throws with the whole
 * result when the shape is off, so a failing row shows what the server really sent.
 */
export function envelopeOf(tool: string, result: CallToolResult): WireEnvelope {
  const structured = result.structuredContent as WireEnvelope | undefined;
  const first = result.content[0];
  const problems: string[] = [];
  if (!structured) problems.push('no structuredContent');
  if (!first || first.type !== 'text') problems.push('no text block first');
  if (structured && first?.type === 'text') {
    const parsed = JSON.parse(first.text) as unknown;
    if (JSON.stringify(parsed) !== JSON.stringify(structured))
      problems.push('text block differs from structuredContent');
  }
  if (structured) {
    if (structured.tool !== tool) problems.push(`tool is ${String(structured.tool)}`);
    if (!OPERATION_ID_PATTERN.test(String(structured.operation_id)))
      problems.push('operation_id is not 12 lowercase Crockford base32 characters');
    // The file's id and nothing else: a path or a uri would repeat it (docs/reference/contract.md, "The envelope").
    if (structured.evidence !== null && Object.keys(structured.evidence ?? {}).join(',') !== 'artifact_id')
      problems.push('evidence is not {artifact_id}');
    if (structured.ok) {
      if (structured.error !== null) problems.push('ok with an error');
      if (result.isError) problems.push('ok but isError');
    } else {
      if (!structured.error || typeof structured.error.code !== 'string') problems.push('failure without error.code');
      if (JSON.stringify(structured.data) !== '{}') problems.push('failure with data');
      if (result.isError !== true) problems.push('failure without isError');
      // The envelope: no stack trace and no host path in a message.
      if (structured.error && /\n\s+at |\/(?:home|tmp|work|usr|root)\//.test(structured.error.message)) {
        problems.push('message leaks a stack or a host path');
      }
    }
  }
  if (problems.length > 0 || !structured) {
    throw new Error(
      `malformed envelope from ${tool} (${problems.join('; ')}): ${JSON.stringify(result).slice(0, 2000)}`,
    );
  }
  return structured;
}

export interface HarnessProcess {
  readonly client: Client;
  readonly pid: number;
  /** The server's stderr so far (JSON log lines), for failure messages. */
  stderr(): string;
  call(tool: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<ToolAnswer>;
  /** Closes stdin (the server shuts down by itself) and waits for the process to be gone. */
  close(): Promise<void>;
}

/**
 * Spawns `node dist/index.js` with exactly `env` (plus PATH/HOME) and connects an MCP client.
 * The caller closes it; the process is also ended by its pid if it outlives close().
 */
export async function startHarness(env: Record<string, string>): Promise<HarnessProcess> {
  assertBuilt();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_SERVER],
    env,
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let stderrText = '';
  const stderr = transport.stderr;
  if (stderr instanceof PassThrough) {
    stderr.on('data', (chunk: Buffer) => {
      stderrText = (stderrText + chunk.toString('utf8')).slice(-200_000);
    });
  }
  const client = new Client({ name: 'amh-e2e', version: '0.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('the harness has no pid');

  const call = async (tool: string, args: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<ToolAnswer> => {
    const started = Date.now();
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: timeoutMs,
    })) as CallToolResult;
    return { envelope: envelopeOf(tool, result), result, elapsedMs: Date.now() - started };
  };

  const close = async (): Promise<void> => {
    await client.close().catch(() => undefined);
    await awaitExitOrKill(pid, 8_000, 100);
  };

  return { client, pid, stderr: () => stderrText, call, close };
}
