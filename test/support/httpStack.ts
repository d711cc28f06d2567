/**
 * The built server over HTTP on the reliability stack, one per test file: a private adb server, the
 * virtual device (on the Settings app's home screen), one real Appium 3 (reliabilityStack.ts), and
 * `serve --http` on a free loopback port (httpHarness.ts). stop() ends the server, then the stack,
 * each by its pid, and removes the stack's scratch folder.
 *
 *   http = await startHttpStack({ tag: 'rest', token: TOKEN, env: { ANDROID_MCP_ACTION_TIMEOUT: '15' } });
 *   ({ stack, server, base } = http);
 *   …
 *   await http?.stop();
 */
import { startHttpHarness, type HttpHarness } from './httpHarness.js';
import { freePort } from './ports.js';
import { startReliabilityStack, type ReliabilityStack } from './reliabilityStack.js';

export interface HttpStack {
  readonly stack: ReliabilityStack;
  readonly server: HttpHarness;
  /** The server's port on 127.0.0.1. */
  readonly port: number;
  /** http://127.0.0.1:<port>: the REST routes (MCP is at server.url). */
  readonly base: string;
  /** The server's environment. */
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

export interface HttpStackOptions {
  /** Marks the server's adb calls in the stack's trace. */
  readonly tag: string;
  /** ANDROID_MCP_HTTP_TOKEN, the bearer token every request must carry; none when absent. */
  readonly token?: string;
  /** Over the stack's harness environment. */
  readonly env?: Record<string, string>;
}

export async function startHttpStack(options: HttpStackOptions): Promise<HttpStack> {
  const stack = await startReliabilityStack({ appium: true });
  try {
    stack.device.setScreen('settings_home' as never);
    const port = await freePort();
    const env = stack.harnessEnv(options.tag, {
      ...(options.token ? { ANDROID_MCP_HTTP_TOKEN: options.token } : {}),
      ...options.env,
    });
    const server = await startHttpHarness(env, ['--port', String(port)]);
    return {
      stack,
      server,
      port,
      base: new URL(server.url).origin,
      env,
      stop: async () => {
        await server.stop();
        await stack.stop();
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}
