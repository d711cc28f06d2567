/**
 * A small MCP Apps host, as a chat client embeds an app: headless Chromium renders the `ui://`
 * resource in a sandboxed iframe (scripts only, an opaque origin) under the restrictive CSP that
 * SEP-1865 makes the default when a resource declares no origin, and the ext-apps SDK's host side
 * (`AppBridge`) speaks the app protocol with it over postMessage. The bridge runs in this process;
 * the page relays each message between the bridge and the iframe, untouched.
 *
 * Every request the page makes goes through a route: the host page itself is answered in process,
 * anything else is refused and kept in `leaks`, so a test can say that nothing left the machine.
 * Console errors and uncaught exceptions of the page and the app are kept in `errors`.
 */
import { existsSync } from 'node:fs';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumPresent = (): boolean => existsSync(CHROMIUM);

/** The spec's restrictive default (SEP-1865, "UI Resource Format", Host Behavior), plus what it always blocks. */
export const DEFAULT_APP_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'";

/** Served by the route, never fetched: the host's page is on a name that resolves nowhere. */
const HOST_URL = 'http://app-host.invalid/';

const HOST_PAGE = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>host</title>
<style>body { margin: 0; background: #eceff1; } #app { display: block; margin: 12px; width: 760px; height: 300px; border: 1px solid #c7c7c7; border-radius: 10px; background: #fff; }</style>
</head><body><iframe id="app" sandbox="allow-scripts" title="Android device app"></iframe>
<script>
const frame = document.getElementById('app');
window.addEventListener('message', (event) => { if (event.source === frame.contentWindow) window.__toHost(event.data); });
window.__toView = (message) => frame.contentWindow.postMessage(message, '*');
window.__load = (html) => { frame.srcdoc = html; };
window.__height = (height) => { frame.style.height = Math.min(height, 2000) + 'px'; };
window.__fill = (on) => { frame.style.width = on ? 'calc(100vw - 26px)' : '760px'; frame.style.height = on ? 'calc(100vh - 26px)' : frame.style.height; };
</script></body></html>`;

/** The bridge's side of the relay: messages from the page's iframe in, messages to it out. */
class PageRelay implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly page: Page) {}

  async start(): Promise<void> {
    // The page's listener is in place before the bridge connects (AppHost.open).
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.page.evaluate((m) => (window as unknown as { __toView(m: unknown): void }).__toView(m), message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

export interface AppHostServer {
  readResource(uri: string): Promise<unknown>;
}

export interface AppHost {
  readonly page: Page;
  readonly errors: readonly string[];
  readonly leaks: readonly string[];
  /** The display modes the app asked for, in order. */
  readonly modes: readonly string[];
  /** Loads the app's HTML (tearing down the instance before) and waits for its `ui/notifications/initialized`. */
  open(html: string): Promise<void>;
  /** What a host sends when a linked tool returns: its arguments, then its result. */
  deliver(args: Record<string, unknown>, result: unknown): Promise<void>;
  close(): Promise<void>;
}

export async function startAppHost(server: AppHostServer): Promise<AppHost> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const errors: string[] = [];
  const leaks: string[] = [];
  const modes: string[] = [];
  let bridge: AppBridge | null = null;
  try {
    const page = await browser.newPage({ viewport: { width: 790, height: 640 }, deviceScaleFactor: 1 });
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`exception: ${error.message}`));
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (url === HOST_URL)
        return route.fulfill({
          status: 200,
          contentType: 'text/html',
          headers: { 'content-security-policy': DEFAULT_APP_CSP },
          body: HOST_PAGE,
        });
      leaks.push(url);
      return route.abort();
    });
    let relay: PageRelay | null = null;
    await page.exposeFunction('__toHost', (message: JSONRPCMessage) => relay?.onmessage?.(message));
    await page.goto(HOST_URL);

    const open = async (html: string): Promise<void> => {
      if (bridge) {
        // A host tears the previous instance down first (SEP-1865, "Cleanup"), waiting for its answer.
        await bridge.teardownResource({});
        await bridge.close();
      }
      relay = new PageRelay(page);
      bridge = new AppBridge(
        null,
        { name: 'amh-test-host', version: '1.0.0' },
        { serverResources: {}, logging: {} },
        {
          hostContext: {
            theme: 'light',
            displayMode: 'inline',
            availableDisplayModes: ['inline', 'fullscreen'],
            containerDimensions: { width: 760, maxHeight: 2000 },
            platform: 'web',
          },
        },
      );
      bridge.onreadresource = async ({ uri }) => (await server.readResource(uri)) as never;
      bridge.onsizechange = ({ height }) => {
        if (height !== undefined)
          void page.evaluate((h) => (window as unknown as { __height(h: number): void }).__height(h), height);
      };
      bridge.onrequestdisplaymode = async ({ mode }) => {
        modes.push(mode);
        await page.evaluate(
          (on) => (window as unknown as { __fill(on: boolean): void }).__fill(on),
          mode === 'fullscreen',
        );
        return { mode };
      };
      const initialized = new Promise<void>((resolve) => {
        bridge!.oninitialized = () => resolve();
      });
      await bridge.connect(relay);
      // The host applies the CSP to the document too (a desktop host writes it as the sandbox proxy would).
      const withCsp = html.replace(
        '<head>',
        `<head><meta http-equiv="Content-Security-Policy" content="${DEFAULT_APP_CSP.replace(/"/g, '&quot;')}">`,
      );
      await page.evaluate((h) => (window as unknown as { __load(h: string): void }).__load(h), withCsp);
      await initialized;
    };

    return {
      page,
      errors,
      leaks,
      modes,
      open,
      deliver: async (args, result) => {
        if (!bridge) throw new Error('open the app first');
        await bridge.sendToolInput({ arguments: args });
        await bridge.sendToolResult(result as never);
      },
      close: async () => {
        await bridge?.close().catch(() => undefined);
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
