/** Spawning an MCP server over stdio with the SDK's own client, the way a real client does. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export interface Spawned {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** ms from spawn to the initialize answer. */
  readonly initialized_ms: number;
  readonly started: number;
  stderrTail(): string;
}

export async function spawnServer(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<Spawned> {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe', ...(cwd ? { cwd } : {}) });
  let tail = '';
  const client = new Client({ name: 'android-mcp-harness-bench', version: '0.1.0' });
  const started = performance.now();
  const connecting = client.connect(transport);
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  await connecting;
  return { client, transport, initialized_ms: performance.now() - started, started, stderrTail: () => tail };
}

/** The environment a child gets: the bench's own, minus anything that could point it at a device. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}

/**
 * Closes the client (stdin of the server), then makes sure the server process is gone: the
 * harness exits within 5 s after stdin closes (CONTRACT); if it has not, it is killed by its pid.
 */
export async function closeServer(server: Spawned): Promise<void> {
  const pid = server.transport.pid;
  await server.client.close().catch(() => undefined);
  if (pid === null) return;
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let waited = 0; alive() && waited < 6000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(pid, 'SIGKILL');
}
