/**
 * Traces end to end, on the virtual device through the real adb and a real Appium: a flow run
 * records its trace; `trace view` writes a page that Debian's headless Chromium opens without a
 * console error or a network request, shows every call with its screenshots, outlines the tapped
 * element and steps with the keyboard (screenshots of the page kept under
 * artifacts/test-output/trace-viewer/); `trace export --format flow` replays green through the
 * flow runner with its input given (refused without) and `--format wdio` through WebdriverIO
 * against the same Appium; a step whose element is gone fails with UI_ELEMENT_NOT_FOUND in both.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FlowReport } from '../../src/flow/runFlow.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { REPO_ROOT, startAppium, type RunningAppium } from '../support/appium.js';
import { ensureBuilt } from '../support/rawServer.js';
import { startHarness } from '../e2e/support/harnessClient.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

const bin = path.join(REPO_ROOT, 'dist', 'index.js');
const example = path.join(REPO_ROOT, 'docs', 'flows', 'example.json');
const CHROMIUM = '/usr/bin/chromium';
/** Kept after the run for a person to look at; replaced by the next run. */
const OUTPUT = path.join(REPO_ROOT, 'artifacts', 'test-output', 'trace-viewer');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeout = 240_000,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, [...args], { env, cwd, timeout, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
        stdout: String(stdout),
        stderr: String(stderr),
      });
    });
  });
}

/**
 * Opens `page` in Debian's headless Chromium (never a downloaded one) at 1366×768, with a profile of its own
 * removed after; collects console errors and any network request.
 */
async function withPage<T>(page: string, body: (tab: Page, problems: readonly string[]) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'amh-chromium-'));
  let context: BrowserContext | null = null;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
      viewport: { width: 1366, height: 768 },
    });
    const tab = await context.newPage();
    const problems: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    tab.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    tab.on('request', (request) => {
      if (!request.url().startsWith('file:') && !request.url().startsWith('data:'))
        problems.push(`network: ${request.url()}`);
    });
    await tab.goto(pathToFileURL(page).href);
    return await body(tab, problems);
  } finally {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

describeWithAdb('traces on the virtual device: record, view in Chromium, export, replay', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let appium: RunningAppium;
  let serial: string;
  let workDir: string;
  let traceDir: string;

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    APPIUM_URL: appium.url,
    ANDROID_ADB_SERVER_PORT: String(adb.port),
    ANDROID_UDID: serial,
    ANDROID_MCP_ALLOW_SERIALS: serial,
    ...extra,
  });

  beforeAll(async () => {
    ensureBuilt();
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
    appium = await startAppium({ adbPort: adb.port });
    workDir = mkdtempSync(path.join(os.tmpdir(), 'amh-trace-'));
    rmSync(OUTPUT, { recursive: true, force: true });
    mkdirSync(OUTPUT, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    if (adb && serial) await disconnectDevice(adb, serial);
    await appium?.stop();
    await device?.stop();
    await adb?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('a flow run records its trace: one line per call, the evidence linked, no typed text, no session id', async () => {
    const flowRun = await run(process.execPath, [bin, 'flow', example], env(), workDir);
    expect(flowRun.code).toBe(0);
    const report = JSON.parse(flowRun.stdout) as FlowReport;
    expect(report.trace).toMatch(/^artifacts\/traces\/\d{8}-\d{6}-\d{3}-flow-\d+$/);
    expect(flowRun.stderr).toContain(`trace: ${report.trace ?? ''}`);
    traceDir = path.join(workDir, report.trace ?? '');
    const text = readFileSync(path.join(traceDir, 'trace.jsonl'), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'start', kind: 'flow', device: serial });
    expect(lines.slice(1).map((line) => line.tool)).toEqual(report.calls.map((call) => call.tool));
    const sessionId = report.calls.find((call) => call.tool === 'ui_session_open')?.envelope.data?.session_id;
    expect(typeof sessionId).toBe('string');
    expect(text).not.toContain(String(sessionId));
    expect(text).toContain('"session_id":"session-1"');
    // Each tap says where it pressed (for the viewer), in physical pixels inside the screen.
    for (const tap of lines.filter((line) => line.tool === 'ui_tap'))
      expect(tap.acted_bounds).toEqual([
        expect.any(Number),
        expect.any(Number),
        expect.any(Number),
        expect.any(Number),
      ]);
    const typed = lines.find((line) => line.tool === 'ui_type_text');
    expect(typed?.arguments).toMatchObject({ text: '[typed text]', typed_characters: 4 });
    // The text is kept nowhere in the line but where the screen itself shows it: the answer's
    // `after` (the field's value once typed, as the client got it; a password never is).
    const envelope = typed?.envelope as { data?: Record<string, unknown> } | undefined;
    const { after, ...answered } = envelope?.data ?? {};
    expect(after).toBeDefined();
    expect(JSON.stringify({ ...typed, envelope: { ...envelope, data: answered } })).not.toContain('wifi');
    const evidence = report.evidence.map((file) => path.basename(file)).sort();
    expect(readdirSync(path.join(traceDir, 'evidence')).sort()).toEqual(evidence);
  }, 240_000);

  it('trace view writes a page that headless Chromium shows without errors, every step with its screenshots, usable with the keyboard', async () => {
    const view = await run(process.execPath, [bin, 'trace', 'view', traceDir], env(), workDir);
    expect(view.stderr).toBe('');
    expect(view.code).toBe(0);
    const page = view.stdout.trim();
    expect(page).toBe(path.join(traceDir, 'index.html'));
    const html = readFileSync(page, 'utf8');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="(https?:)?\/\//);

    await withPage(page, async (tab, problems) => {
      const steps = tab.locator('nav button');
      const calls = readFileSync(path.join(traceDir, 'trace.jsonl'), 'utf8').trim().split('\n').length - 1;
      await expect.poll(() => steps.count()).toBe(calls);
      // The first step is shown and focused: the keyboard works from the start.
      expect(await tab.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('true');
      await tab.screenshot({ path: path.join(OUTPUT, 'step-01.png') });

      const seen: string[] = [];
      for (let index = 0; index < calls; index += 1) {
        const verdict = (await tab.locator('main .verdict').textContent()) ?? '';
        seen.push(verdict);
        expect(verdict).toMatch(new RegExp(`^Step ${index + 1} · \\w+ · ok$`));
        const tool = verdict.split(' · ')[1] ?? '';
        const shots = await tab.locator('main .shot img').count();
        // Acting calls show the screen before and their own evidence; every call after app_open has a screen to show.
        if (['ui_tap', 'ui_type_text', 'ui_scroll', 'device_back'].includes(tool)) expect(shots).toBe(2);
        else if (index > 0) expect(shots).toBeGreaterThanOrEqual(1);
        // One numbering: the list's number is the verdict's, and "read before" names an earlier step.
        expect(await steps.nth(index).locator('.n').textContent()).toBe(String(index + 1));
        const readBefore = (await tab.locator('main dd.read-before').textContent()) ?? '';
        if (index > 0) expect(readBefore).toMatch(/^step \d+ \(/);
        const readStep = Number(/^step (\d+)/.exec(readBefore)?.[1] ?? '0');
        if (index > 0) expect(readStep).toBeLessThan(index + 1);
        if (index === 3) {
          // ui_tap {text: Apps}: the tapped row is outlined on the screen the model read.
          expect(tool).toBe('ui_tap');
          expect(readBefore).toBe('step 2 (ui_get_tree)');
          expect(await tab.locator('main dd.element-from').textContent()).toMatch(
            /^step 2 \(ui_get_tree\): entry e[0-9a-z]+$/,
          );
          await expect.poll(() => tab.locator('main .box:not(.finding)').count()).toBe(1);
          expect(await tab.locator('main .box:not(.finding) span').textContent()).toBe('Apps');
          await tab.screenshot({ path: path.join(OUTPUT, 'step-04-tap-outlined.png') });
        }
        if (index === 4) {
          // ui_tap {text: All apps}, on a screen no tree was read of: outlined where the harness pressed.
          await expect.poll(() => tab.locator('main .box:not(.finding)').count()).toBe(1);
          expect(await tab.locator('main .box:not(.finding) span').textContent()).toBe('All apps');
          await tab.screenshot({ path: path.join(OUTPUT, 'step-05-tap-where-pressed.png') });
        }
        await tab.keyboard.press(index % 2 === 0 ? 'j' : 'ArrowDown');
      }
      await tab.screenshot({ path: path.join(OUTPUT, 'last-step.png') });
      await tab.keyboard.press('k');
      await tab.keyboard.press('Home');
      expect(await tab.locator('main .verdict').textContent()).toMatch(/^Step 1 · app_open/);
      // Focus is visible: the focused step has an outline.
      const outline = await tab.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
      expect(outline).not.toBe('none');
      expect(problems).toEqual([]);
      expect(seen).toHaveLength(calls);
    });
  }, 120_000);

  it('the viewer names steps, never lines: a tap by a ref taken from a diff points at the diff that holds it and is outlined where it pressed', async () => {
    // A model's session over MCP: the ref it taps comes from ui_type_text's `after`, a diff.
    const artifacts = path.join(workDir, 'mcp-artifacts');
    const harnessEnv = Object.fromEntries(
      Object.entries(env({ ANDROID_MCP_ARTIFACTS_DIR: artifacts })).filter(
        (pair): pair is [string, string] => pair[1] !== undefined,
      ),
    );
    const harness = await startHarness(harnessEnv);
    let refFromDiff = '';
    try {
      const ok = async (tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
        const answer = await harness.call(tool, args);
        expect(answer.envelope.ok, JSON.stringify(answer.envelope).slice(0, 1500)).toBe(true);
        return answer.envelope.data;
      };
      await ok('app_open', { package_name: 'com.android.settings' });
      await ok('ui_get_tree');
      await ok('ui_tap', { selector: { id: 'search_action_bar' } });
      const typed = await ok('ui_type_text', { selector: { input_hint: 'Search settings' }, text: 'wifi' });
      const after = typed.after as { diff_of?: string; added?: { ref: string; text?: string }[] };
      expect(after.diff_of, JSON.stringify(after)).toMatch(/^r[0-9a-z]+$/);
      const wifi = after.added?.find((entry) => entry.text === 'Wi-Fi');
      expect(wifi, JSON.stringify(after)).toBeDefined();
      refFromDiff = wifi!.ref;
      await ok('ui_tap', { selector: { ref: refFromDiff } });
    } finally {
      await harness.close();
      // Settings was left on a page of its own: the next test's flow opens the app where a cold start puts it.
      await adb.adb(['-s', serial, 'shell', 'am', 'force-stop', 'com.android.settings']);
    }
    const traces = path.join(artifacts, 'traces');
    const [name] = readdirSync(traces).filter((entry) => entry.includes('-stdio-'));
    const dir = path.join(traces, name ?? '');
    const lines = readFileSync(path.join(dir, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool?: string; acted_bounds?: number[]; element?: { bounds?: number[] } });
    const calls = lines.slice(1);
    expect(calls.map((call) => call.tool)).toEqual(['app_open', 'ui_get_tree', 'ui_tap', 'ui_type_text', 'ui_tap']);
    const pressed = calls[4]!.element?.bounds ?? calls[4]!.acted_bounds;
    expect(pressed).toHaveLength(4);

    const view = await run(process.execPath, [bin, 'trace', 'view', dir], env(), workDir);
    expect(view.code, view.stderr).toBe(0);
    await withPage(view.stdout.trim(), async (tab, problems) => {
      await tab.keyboard.press('End');
      expect(await tab.locator('main .verdict').textContent()).toBe('Step 5 · ui_tap · ok');
      // The model had read step 4's answer, a diff; the ref's entry is listed by that diff itself.
      expect(await tab.locator('main dd.read-before').textContent()).toBe(
        "step 4 (ui_type_text's after, a diff of step 3's read)",
      );
      expect(await tab.locator('main dd.element-from').textContent()).toBe(
        `step 4 (ui_type_text's after, a diff of step 3's read): entry ${refFromDiff}`,
      );
      // Outlined where the harness pressed, on the screen the model acted on.
      const box = tab.locator('main .box:not(.finding)');
      await expect.poll(() => box.count()).toBe(1);
      expect(await box.locator('span').textContent()).toBe('Wi-Fi');
      const frame = await tab.locator('main .shot img').first().boundingBox();
      const drawn = await box.boundingBox();
      const screen = await tab.evaluate(() => {
        const img = document.querySelector('main .shot img') as HTMLImageElement;
        return { width: img.naturalWidth, height: img.naturalHeight };
      });
      expect(frame && drawn).toBeTruthy();
      // The drawn box sits at the pressed bounds, scaled to the picture (within 2 css pixels, the border).
      const scale = frame!.width / screen.width;
      expect(Math.abs(drawn!.x - frame!.x - pressed![0]! * scale)).toBeLessThan(3);
      expect(Math.abs(drawn!.y - frame!.y - pressed![1]! * scale)).toBeLessThan(3);
      expect(Math.abs(drawn!.width - pressed![2]! * scale)).toBeLessThan(3);
      await tab.screenshot({ path: path.join(OUTPUT, 'diff-ref-outlined.png') });
      // "read before" is a link to that step.
      await tab.locator('main dd.read-before button.jump').click();
      expect(await tab.locator('main .verdict').textContent()).toBe('Step 4 · ui_type_text · ok');
      expect(await tab.locator('nav button[aria-current="true"] .n').textContent()).toBe('4');
      expect(problems).toEqual([]);
    });
  }, 240_000);

  it('trace export --format flow replays green with its input given, and is refused without', async () => {
    const exported = await run(
      process.execPath,
      [bin, 'trace', 'export', traceDir, '--format', 'flow'],
      env(),
      workDir,
    );
    expect(exported.code, exported.stderr).toBe(0);
    const flowFile = exported.stdout.trim();
    // The typed text is never in the trace: it becomes an input of the flow, named after the field.
    expect(exported.stderr).toMatch(/the flow takes 1 input .*: search_settings; .*ANDROID_MCP_INPUT_SEARCH_SETTINGS/);
    const flow = JSON.parse(readFileSync(flowFile, 'utf8')) as {
      package_name: string;
      inputs: Record<string, unknown>;
      steps: { tool: string; arguments: Record<string, unknown> }[];
    };
    expect(flow.inputs).toEqual({ search_settings: {} });
    expect(flow.steps.at(-1)?.arguments.text).toBe('${search_settings}');
    expect(flow.package_name).toBe('com.android.settings');
    expect(flow.steps.map((step) => step.tool)).toEqual([
      'ui_tap',
      'ui_tap',
      'ui_scroll',
      'device_back',
      'device_back',
      'ui_tap',
      'ui_type_text',
    ]);
    expect(JSON.stringify(flow)).not.toContain('session');

    // Refused without its input, before anything starts; green with it.
    const refused = await run(process.execPath, [bin, 'flow', flowFile], env(), workDir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/needs inputs it was not given: search_settings/);
    const replay = await run(
      process.execPath,
      [bin, 'flow', flowFile, '--input', 'search_settings=wifi'],
      env(),
      workDir,
    );
    expect(replay.stderr).toMatch(/: PASSED, 7\/7 steps/);
    expect(replay.code).toBe(0);
  }, 240_000);

  it('a replay of the exported flow whose element is gone fails with UI_ELEMENT_NOT_FOUND, its page on the failed step', async () => {
    const flow = JSON.parse(readFileSync(path.join(traceDir, 'flow.json'), 'utf8')) as {
      steps: { tool: string; arguments: Record<string, unknown> }[];
    };
    const gone = structuredClone(flow);
    gone.steps[1] = { tool: 'ui_tap', arguments: { selector: { text: 'All apps, gone' } } };
    const goneFile = path.join(workDir, 'gone.json');
    writeFileSync(goneFile, JSON.stringify(gone));
    const failed = await run(
      process.execPath,
      [bin, 'flow', goneFile],
      env({ ANDROID_MCP_INPUT_SEARCH_SETTINGS: 'wifi' }),
      workDir,
    );
    expect(failed.code).toBe(1);
    const report = JSON.parse(failed.stdout) as FlowReport;
    expect(report.first_error).toMatchObject({ step_index: 1, code: 'UI_ELEMENT_NOT_FOUND' });

    // Its trace's page opens on the failed step, which stands out in the list.
    const view = await run(
      process.execPath,
      [bin, 'trace', 'view', path.join(workDir, report.trace ?? '')],
      env(),
      workDir,
    );
    expect(view.code).toBe(0);
    await withPage(view.stdout.trim(), async (tab, problems) => {
      await expect.poll(() => tab.locator('nav button.failed').count()).toBe(1);
      expect(await tab.locator('main .verdict.failed').textContent()).toMatch(
        /^Step 5 · ui_tap · FAILED: UI_ELEMENT_NOT_FOUND: /,
      );
      await tab.screenshot({ path: path.join(OUTPUT, 'failed-step.png') });
      expect(problems).toEqual([]);
    });
  }, 240_000);

  it('trace export --format wdio runs green against the same Appium; a gone element fails it with UI_ELEMENT_NOT_FOUND', async () => {
    // Inside the repository, so that `import 'webdriverio'` resolves as in a user's project.
    const out = path.join(OUTPUT, 'replay.test.mjs');
    const exported = await run(
      process.execPath,
      [bin, 'trace', 'export', traceDir, '--format', 'wdio', '--out', out],
      env(),
      workDir,
    );
    expect(exported.code).toBe(0);
    const source = readFileSync(out, 'utf8');
    expect(source).toMatch(/from 'webdriverio'/);
    expect([...source.matchAll(/^import .* from '([^']+)'/gm)].map((m) => m[1])).toEqual([
      'node:assert/strict',
      'webdriverio',
    ]);
    const passed = await run(
      process.execPath,
      ['--test', '--test-reporter=spec', out],
      env({ ANDROID_MCP_INPUT_SEARCH_SETTINGS: 'wifi' }),
      REPO_ROOT,
    );
    expect(passed.stdout).toMatch(/pass 7/);
    expect(passed.code).toBe(0);

    const goneFile = path.join(OUTPUT, 'replay-gone.test.mjs');
    writeFileSync(goneFile, source.replaceAll('All apps', 'All apps, gone'));
    const failed = await run(
      process.execPath,
      ['--test', '--test-reporter=spec', goneFile],
      env({ ANDROID_MCP_INPUT_SEARCH_SETTINGS: 'wifi' }),
      REPO_ROOT,
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(/UI_ELEMENT_NOT_FOUND: no element matches \{"text":"All apps, gone"\}/);
    expect(await appium.sessionIds()).toEqual([]);
    expect(existsSync(goneFile)).toBe(true);
  }, 240_000);
});
