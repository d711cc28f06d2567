/**
 * The device app (MCP Apps) as a host renders it: a real server (the build, over stdio and over
 * Streamable HTTP) → the real adb → a real Appium 3 + UiAutomator2 → the virtual device, and a host
 * of the ext-apps SDK's own side (support/appHost.ts) rendering the `ui://` resource in headless
 * Chromium. Across a flow through Settings, each tool result opens a fresh app instance, as a chat
 * shows one per call: it draws that step's screen, the refs of the read that describes it (hover
 * shows the entry), the element acted on, and the strip of the last steps; the trace viewer opens
 * from the app. No console error, no request leaves the page, and the model's part of every answer
 * is the answer a client without the extension gets.
 *
 * ANDROID_MCP_DOC_SCREENSHOTS=1 writes the screenshots into docs/guide/ (else into the test's
 * temporary evidence directory). Skipped without Chromium, and on a real emulator (the flow needs the
 * virtual device's Settings).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_DATA_KEY, DEVICE_APP_URI, type DeviceAppData } from '../../src/mcp/app/DeviceApp.js';
import { describeWithAdb } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { startHttpHarness, type HttpHarness } from '../support/httpHarness.js';
import { freePort } from '../support/ports.js';
import { awaitExitOrKill } from '../support/processes.js';
import { assertBuilt, BUILT_SERVER } from './support/harnessClient.js';
import { chromiumPresent, CHROMIUM, startAppHost, type AppHost } from './support/appHost.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';

const APPS_CAPABILITIES = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};
const TOKEN = 'mcp-app-test-token-0123456789abcdef';
const DOC_SCREENSHOTS = process.env.ANDROID_MCP_DOC_SCREENSHOTS === '1';

/** What the flow needs of an MCP connection, whichever SDK and transport carry it. */
interface McpSide {
  listTools(): Promise<{ name: string; _meta?: Record<string, unknown> }[]>;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  readResource(uri: string): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
}

interface Entry {
  readonly ref: string;
  readonly text?: string;
  readonly label?: string;
}

const appOf = (result: CallToolResult): DeviceAppData => {
  const data = (result._meta as Record<string, unknown> | undefined)?.[APP_DATA_KEY];
  if (!data) throw new Error(`the result carries no app data: ${JSON.stringify(result).slice(0, 500)}`);
  return data as DeviceAppData;
};
const envelopeOf = (result: CallToolResult) =>
  result.structuredContent as { ok: boolean; data: Record<string, unknown>; error: unknown };

(ON_EMULATOR || !chromiumPresent() ? describe.skip : describeWithAdb)(
  `the device app in a host (headless Chromium at ${CHROMIUM})`,
  () => {
    let stack: E2eStack;
    let host: AppHost;
    const shots: string[] = [];

    beforeAll(async () => {
      assertBuilt();
      stack = await startStack({ label: 'mcp-app' });
    }, 120_000);

    afterAll(async () => {
      await stack?.stop();
    }, 60_000);

    /** The stdio run's pictures are the guide's (when asked for); the rest stay with the test's evidence. */
    async function screenshot(name: string): Promise<void> {
      const dir =
        DOC_SCREENSHOTS && !name.includes('-http')
          ? join(REPO_ROOT, 'docs', 'guide')
          : join(stack.evidenceDir, 'shots');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, name);
      writeFileSync(file, await host.page.locator('#app').screenshot());
      shots.push(file);
    }

    /** The flow, with a fresh app instance for each linked result; `label` names the screenshots. */
    async function driveFlow(mcp: McpSide, label: string): Promise<void> {
      const tools = await mcp.listTools();
      const linked = tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name);
      expect(linked).toEqual(expect.arrayContaining(['ui_get_tree', 'screen_capture', 'ui_tap', 'device_back']));
      expect(linked).not.toContain('ui_session_open');
      const page = await mcp.readResource(DEVICE_APP_URI);
      expect(page.contents[0]?.mimeType).toBe('text/html;profile=mcp-app');
      const html = page.contents[0]!.text!;

      // Cold, as the flow expects: an earlier flow left Settings deeper in, and app_open resumes where it was.
      await stack.adb(['shell', 'am', 'force-stop', 'com.android.settings']);
      host = await startAppHost({ readResource: (uri) => mcp.readResource(uri) });
      try {
        const app = host.page.frameLocator('#app');
        let shown = 0;
        const step = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
          const result = await mcp.call(name, args);
          const envelope = envelopeOf(result);
          expect(envelope.ok, `${name}: ${JSON.stringify(envelope.error)}`).toBe(true);
          // What the model reads is the envelope alone, as without the extension.
          expect(result.content).toHaveLength(name === 'screen_capture' ? 2 : 1);
          expect(result.content[0]).toEqual({ type: 'text', text: JSON.stringify(result.structuredContent) });
          await host.open(html);
          await host.deliver(args, result);
          const data = appOf(result);
          shown = data.step.step;
          await expect.poll(() => app.locator('#caption').textContent()).toContain(`Step ${shown} · ${name}`);
          expect(await app.locator('.box').count()).toBe(data.refs.length);
          expect(await app.locator('.acted').count()).toBe(data.acted ? 1 : 0);
          expect(await app.locator('.step').count()).toBe(data.steps.length);
          if (data.screen) {
            const src = await app.locator('#frame img').getAttribute('src');
            expect(src).toBe(`data:image/png;base64,${data.screen.png}`);
          }
          return result;
        };

        const open = await mcp.call('ui_session_open', {});
        const session_id = envelopeOf(open).data.session_id as string;
        try {
          await step('app_open', { package_name: 'com.android.settings', session_id });
          const home = await step('ui_get_tree', { session_id });
          const homeApp = appOf(home);
          // The read describes the screen app_open left: its refs are drawn on it.
          expect(homeApp.refs_step).toBe(homeApp.step.step);
          expect(homeApp.refs.length).toBeGreaterThan(3);
          const entries = envelopeOf(home).data.actions as Entry[];
          const apps = entries.find((entry) => (entry.text ?? entry.label) === 'Apps')!;
          await app.locator(`.box[data-ref="${apps.ref}"]`).hover();
          await expect.poll(() => app.locator('#entry').textContent()).toContain(`"ref":"${apps.ref}"`);
          await screenshot(`mcp-app-read${label}.png`);

          const tapped = await step('ui_tap', { selector: { ref: apps.ref }, session_id });
          const tapApp = appOf(tapped);
          // Acted on: the screen the read described, with the row outlined; beside it the screen after.
          expect(tapApp.acted).not.toBeNull();
          expect(tapApp.before?.step).toBe(homeApp.screen?.step);
          expect(await app.locator('#before .acted').count()).toBe(1);
          expect(tapApp.refs).toEqual([]);
          await screenshot(`mcp-app-tap${label}.png`);

          const list = await step('ui_get_tree', { session_id });
          const all = (envelopeOf(list).data.actions as Entry[]).find(
            (entry) => (entry.text ?? entry.label) === 'All apps',
          )!;
          await step('ui_tap', { selector: { ref: all.ref }, session_id });
          await step('ui_scroll', { direction: 'down', session_id });
          const back = await step('device_back', { session_id });
          const strip = appOf(back).steps;
          expect(strip.map((s) => s.tool)).toEqual(
            ['app_open', 'ui_get_tree', 'ui_tap', 'ui_get_tree', 'ui_tap', 'ui_scroll', 'device_back'].slice(
              -strip.length,
            ),
          );
          // Each step that took a screenshot shows it in the strip.
          expect(await app.locator('.step img').count()).toBe(strip.filter((s) => s.thumb !== null).length);

          // The run's trace viewer, one click away: read through the host, shown in the app, full screen.
          await app.locator('#trace').click();
          const viewer = app.frameLocator('#viewer iframe');
          await expect.poll(() => viewer.locator('body').textContent(), { timeout: 20_000 }).toContain('ui_tap');
          expect(host.modes).toContain('fullscreen');
          await screenshot(`mcp-app-trace${label}.png`);
          await app.locator('#close').click();
          expect(await app.locator('#viewer').isHidden()).toBe(true);
        } finally {
          await mcp.call('ui_session_close', { session_id });
        }
        expect(host.errors).toEqual([]);
        expect(host.leaks).toEqual([]);
      } finally {
        await host.close();
      }
    }

    it('over stdio (2025-11-25, the extension negotiated at initialize), across a flow in Settings', async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BUILT_SERVER],
        env: stack.harnessEnv(),
        cwd: REPO_ROOT,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'amh-app-host', version: '1.0.0' }, { capabilities: APPS_CAPABILITIES });
      await client.connect(transport);
      const pid = transport.pid!;
      try {
        await driveFlow(
          {
            listTools: async () => (await client.listTools()).tools,
            call: async (name, args) =>
              (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult,
            readResource: (uri) => client.readResource({ uri }),
          },
          '',
        );
      } finally {
        await client.close().catch(() => undefined);
        await awaitExitOrKill(pid, 8_000, 100);
      }
    }, 300_000);

    it('over Streamable HTTP (2026-07-28, the extension in each request), the same app', async () => {
      let server: HttpHarness | null = null;
      try {
        server = await startHttpHarness(stack.harnessEnv({ ANDROID_MCP_HTTP_TOKEN: TOKEN }), [
          '--port',
          String(await freePort()),
        ]);
        const transport = new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        });
        const client = new ClientV2(
          { name: 'amh-app-host', version: '1.0.0' },
          { capabilities: APPS_CAPABILITIES, versionNegotiation: { mode: 'auto' } },
        );
        await client.connect(transport);
        try {
          expect(client.getProtocolEra()).toBe('modern');
          await driveFlow(
            {
              listTools: async () =>
                (await client.listTools()).tools as { name: string; _meta?: Record<string, unknown> }[],
              call: async (name, args) =>
                (await client.callTool({ name, arguments: args }, { timeout: 120_000 })) as unknown as CallToolResult,
              readResource: async (uri) =>
                (await client.readResource({ uri })) as {
                  contents: { uri: string; mimeType?: string; text?: string }[];
                },
            },
            '-http',
          );
        } finally {
          await client.close().catch(() => undefined);
        }
      } finally {
        await server?.stop();
      }
    }, 300_000);
  },
);
