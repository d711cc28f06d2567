/**
 * The MCP Bundle (.mcpb) for Claude Desktop, as a user gets it. `scripts/bundle.mjs` (what
 * `npm run bundle` runs after its build) validates manifest.json and packs the bundle with the
 * official `mcpb` CLI; the bundle is unpacked with mcpb's own `unpackExtension`, and the command,
 * arguments and environment a host runs are made by mcpb's own `getMcpConfigForManifest` (the
 * loader code Claude Desktop uses) from the unpacked manifest and a user's settings. The server
 * started that way serves MCP over stdio against the built-in virtual device on a private adb server:
 * the default catalogue, a status and a tree by discovery (ANDROID_UDID left empty), and a tap
 * through the Appium that comes inside the bundle (APPIUM_URL left empty).
 *
 * The bundle carries none of the virtual device (its own package): no canvas, no fonts. The native
 * part it does carry (Appium's image library) is removed from the unpacked copy first: a bundle packed on linux-x64 must still serve on a
 * platform whose binaries it lacks, so the server must never load them unless they are used.
 *
 * Processes: the bundle script and the server are each given a temp directory of their own,
 * checked empty when they have ended; the server exits when its stdin closes.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getMcpConfigForManifest, unpackExtension, type McpbManifestAny } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/mcp/tools/index.js';
import { describeWithAdb, locateAdb } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { awaitExitOrKill, trackChild } from '../support/processes.js';
import { ensureBuilt } from '../support/rawServer.js';
import { startReliabilityStack, type ReliabilityStack } from '../support/reliabilityStack.js';
import type { WireEnvelope as Envelope } from '../support/wireEnvelope.js';

const BUNDLE_TIMEOUT_MS = 600_000;

function runBundleScript(out: string, tmp: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    const child = execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'scripts', 'bundle.mjs'), '--out', out],
      { cwd: REPO_ROOT, env, timeout: BUNDLE_TIMEOUT_MS },
      (error, _stdout, stderr) => {
        if (error) reject(new Error(`scripts/bundle.mjs failed: ${error.message}\n${String(stderr).slice(-4000)}`));
        else resolve(String(stderr));
      },
    );
    trackChild(child);
  });
}

/** Every folder under `root` named like a package of prebuilt binaries for one platform. */
function nativePackages(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((entry) => /(^|\/)node_modules\/@(napi-rs\/canvas|img\/sharp)-[^/]+$/.test(entry.split(path.sep).join('/')))
    .map((entry) => path.join(root, entry));
}

function envelopeOf(result: unknown): Envelope {
  return (result as CallToolResult).structuredContent as unknown as Envelope;
}

describeWithAdb('the MCP Bundle (.mcpb) for Claude Desktop', () => {
  let scratch: string;
  let unpacked: string;
  let packLog: string;
  let scriptTmp: string;
  let stack: ReliabilityStack;

  beforeAll(async () => {
    ensureBuilt();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'amh-bundle-it-'));
    scriptTmp = path.join(scratch, 'script-tmp');
    mkdirSync(scriptTmp);
    const file = path.join(scratch, 'android-mcp-harness.mcpb');
    const started = Date.now();
    packLog = await runBundleScript(file, scriptTmp);
    process.stderr.write(
      `[bundle] npm run bundle (without its build): ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    unpacked = path.join(scratch, 'unpacked');
    expect(await unpackExtension({ mcpbPath: file, outputDir: unpacked, silent: true })).toBe(true);
    stack = await startReliabilityStack();
    stack.device.setScreen('settings_home' as never);
  }, BUNDLE_TIMEOUT_MS + 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('is validated and packed by mcpb, holds the package’s files and its production dependencies only, and the script leaves no temp folder', () => {
    expect(packLog).toContain('mcpb validate manifest.json');
    expect(packLog).toMatch(/done: \d+ files/);
    expect(readdirSync(scriptTmp)).toEqual([]);
    const top = readdirSync(unpacked).sort();
    expect(top).toEqual([
      'LICENSE',
      'README.md',
      'dist',
      'docs',
      'manifest.json',
      'node_modules',
      'package.json',
      'skills',
    ]);
    for (const needed of [
      'dist/index.js',
      'node_modules/appium/package.json',
      'node_modules/appium-uiautomator2-driver/package.json',
      'node_modules/@modelcontextprotocol/sdk/package.json',
    ]) {
      expect(existsSync(path.join(unpacked, needed)), needed).toBe(true);
    }
    // Dev dependencies stay out (the test runner, the compiler, mcpb itself).
    for (const dev of ['vitest', 'typescript', '@anthropic-ai/mcpb', 'tsx'])
      expect(existsSync(path.join(unpacked, 'node_modules', dev)), dev).toBe(false);
    expect(
      readdirSync(path.join(unpacked, 'dist'), { recursive: true, encoding: 'utf8' }).filter(
        (f) => f.endsWith('.map') || f.endsWith('.ts'),
      ),
    ).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as { version: string };
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(manifest.version).toBe(pkg.version);
  });

  it('a host’s settings become the server’s environment as mcpb’s loader makes it: empty fields stay empty strings', async () => {
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as McpbManifestAny;
    const set = await getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: { HOME: os.homedir() },
      userConfig: {
        android_home: '/opt/android-sdk',
        android_udid: '127.0.0.1:5555',
        allow_serials: '127.0.0.1:5555',
        appium_url: 'http://127.0.0.1:4723',
        toolsets: 'device,wait',
      },
      pathSeparator: path.sep,
    });
    expect(set).toMatchObject({
      command: 'node',
      args: [path.join(unpacked, 'dist', 'index.js')],
      env: {
        ANDROID_HOME: '/opt/android-sdk',
        ANDROID_UDID: '127.0.0.1:5555',
        ANDROID_MCP_ALLOW_SERIALS: '127.0.0.1:5555',
        APPIUM_URL: 'http://127.0.0.1:4723',
        ANDROID_MCP_TOOLSETS: 'device,wait',
      },
    });
    // A field the user left alone takes the manifest's default, "": never the literal ${user_config.…}.
    const untouched = await getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: {},
      userConfig: {},
      pathSeparator: path.sep,
    });
    expect(untouched?.env).toEqual({
      ANDROID_HOME: '',
      ANDROID_UDID: '',
      ANDROID_MCP_ALLOW_SERIALS: '',
      APPIUM_URL: '',
      ANDROID_MCP_TOOLSETS: '',
    });
  });

  it('started as the manifest says, without the bundle’s native binaries, it serves the virtual device: tools, status and tree by discovery, a tap through its own Appium', async () => {
    const removed = nativePackages(unpacked);
    expect(
      removed.filter((dir) => dir.includes('canvas')),
      'the virtual device’s canvas is not in the bundle',
    ).toEqual([]);
    expect(removed.length, 'the bundle carries the linux-x64 sharp binaries').toBeGreaterThanOrEqual(1);
    for (const dir of removed) rmSync(dir, { recursive: true, force: true });

    // An SDK folder as a user would point ANDROID_HOME at: platform-tools/adb, and no adb on PATH.
    const realAdb = locateAdb();
    if (!realAdb) throw new Error('adb was not found');
    const sdk = path.join(scratch, 'sdk');
    mkdirSync(path.join(sdk, 'platform-tools'), { recursive: true });
    symlinkSync(realAdb, path.join(sdk, 'platform-tools', 'adb'));
    const nodeOnly = path.join(scratch, 'node-only-bin');
    mkdirSync(nodeOnly);
    symlinkSync(process.execPath, path.join(nodeOnly, 'node'));
    const serverTmp = path.join(scratch, 'server-tmp');
    mkdirSync(serverTmp);

    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as McpbManifestAny;
    const config = await getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: { HOME: os.homedir() },
      // What a user fills in Claude Desktop's settings: the SDK folder, and the serial of a device on
      // another port (this test's virtual device is 127.0.0.1:N, not emulator-N).
      userConfig: { android_home: sdk, allow_serials: stack.serial },
      pathSeparator: path.sep,
    });
    if (!config) throw new Error('mcpb made no server configuration from the manifest');
    const host: Record<string, string> = {
      PATH: nodeOnly,
      HOME: os.homedir(),
      TMPDIR: serverTmp,
      // This test's adb server is a private one (a user's is the default 5037).
      ANDROID_ADB_SERVER_PORT: String(stack.adb.port),
      ANDROID_MCP_ARTIFACTS_DIR: path.join(scratch, 'artifacts'),
      ANDROID_MCP_LOCK_DIR: path.join(scratch, 'locks'),
      ANDROID_MCP_CONNECT_TIMEOUT: '90',
    };
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...host, ...config.env },
      cwd: scratch,
      stderr: 'pipe',
    });
    const log: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
    const client = new Client({ name: 'bundle-test', version: '1.0.0' });
    let pid: number | null = null;
    try {
      await client.connect(transport);
      pid = transport.pid;
      expect(client.getServerVersion()).toMatchObject({ name: 'android-mcp-harness' });
      const { tools } = await client.listTools();
      expect(
        tools.map((t) => t.name),
        'ANDROID_MCP_TOOLSETS="" is the default catalogue',
      ).toEqual([...TOOL_NAMES]);

      const status = envelopeOf(await client.callTool({ name: 'emulator_get_status', arguments: {} }));
      expect(status.ok, JSON.stringify(status.error)).toBe(true);
      expect(status.data.udid, 'ANDROID_UDID="" is discovery').toBe(stack.serial);
      const tree = envelopeOf(await client.callTool({ name: 'ui_get_tree', arguments: {} }));
      expect(tree.ok, JSON.stringify(tree.error)).toBe(true);
      expect(JSON.stringify(tree.data)).toContain('"text":"Apps"');

      const tap = envelopeOf(
        await client.callTool({ name: 'ui_tap', arguments: { selector: { text: 'Apps' } } }, undefined, {
          timeout: 180_000,
        }),
      );
      expect(tap.ok, `${JSON.stringify(tap.error)}\n${log.join('').slice(-3000)}`).toBe(true);
      expect(stack.device.currentScreen().screenId).toBe('settings_apps');
    } finally {
      await client.close();
      if (pid !== null) await awaitExitOrKill(pid, 10_000, 100);
    }
    const text = log.join('');
    expect(text).not.toMatch(/is not usable|is not a URL|unknown toolset/);
    expect(text).toMatch(/Managed Appium spawned|Appium/);
    expect(readdirSync(serverTmp), 'the server and its Appium leave their temp directory empty').toEqual([]);
  }, 300_000);
});
