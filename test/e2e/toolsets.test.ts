/**
 * End to end: each opt-in tool over real stdio (the built bin, the SDK Client)
 * through the real adb and a real Appium 3 + UiAutomator2 on the virtual device (or a real
 * emulator: ANDROID_MCP_E2E_TARGET=emulator), with ANDROID_MCP_TOOLSETS=all.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess, type ToolAnswer, type WireEnvelope } from './support/harnessClient.js';
import { ON_EMULATOR, formatLog, logWindow, startStack, type E2eStack } from './support/stack.js';

const LAUNCHER = 'com.google.android.apps.nexuslauncher';
const SETTINGS = 'com.android.settings';

let stack: E2eStack;
let harness: HarnessProcess;

function ok(answer: ToolAnswer): WireEnvelope {
  expect(answer.envelope.ok, JSON.stringify(answer.envelope.error)).toBe(true);
  return answer.envelope;
}

async function settingsHome(): Promise<void> {
  if (stack.device) stack.device.setScreen('settings_home');
  else ok(await harness.call('app_open', { package_name: SETTINGS }));
}

describeWithAdb(`opt-in toolsets on the ${ON_EMULATOR ? 'real emulator' : 'virtual device'}`, () => {
  beforeAll(async () => {
    stack = await startStack({ label: 'toolsets' });
    harness = await startHarness(stack.harnessEnv({ ANDROID_MCP_TOOLSETS: 'all' }));
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  it('lists the twelve and then the toolsets, and the instructions name the tools that are on', async () => {
    const { tools } = await harness.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 12)).toContain('ui_get_tree');
    expect(names).toContain('device_key');
    expect(harness.client.getInstructions()).toContain('device_key');
  });

  it('device_key: home leads to the launcher, recents shows the Overview, enter and back answer, evidence after each', async () => {
    await settingsHome();
    const home = ok(await harness.call('device_key', { key: 'home' }));
    expect(home.data).toMatchObject({ key: 'home', foreground_package: LAUNCHER });
    expect(home.evidence?.artifact_id).toMatch(/-device-key\.png$/);

    await settingsHome();
    const recents = ok(await harness.call('device_key', { key: 'recents' }));
    expect(recents.data).toMatchObject({ key: 'recents' });
    expect(recents.evidence).not.toBeNull();
    if (!ON_EMULATOR) {
      expect(recents.data.foreground_package).toBe(LAUNCHER);
      const tree = ok(await harness.call('ui_get_tree'));
      expect(JSON.stringify(tree.data)).toContain('Clear all');
    }

    const back = ok(await harness.call('device_key', { key: 'back' }));
    expect(back.data).toMatchObject({ key: 'back' });
    expect(back.evidence).not.toBeNull();
    const enter = ok(await harness.call('device_key', { key: 'enter' }));
    expect(enter.data).toMatchObject({ key: 'enter' });
    expect(enter.evidence).not.toBeNull();
    if (stack.device) {
      const keys = stack.device.logEntries().filter((e) => /keyevent (3|187|66) \(uia2 press_keycode\)/.test(e.detail));
      expect(keys.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('ui_wait: at once when the condition holds, as soon as it comes to hold, OPERATION_TIMEOUT within its bound', async () => {
    await settingsHome();
    const now = ok(await harness.call('ui_wait', { selector: { text: 'Network & internet' }, until: 'visible' }));
    expect(now.data).toMatchObject({ until: 'visible', foreground_package: SETTINGS });
    expect(now.evidence).toBeNull();
    if (stack.device) {
      const device = stack.device;
      const timer = setTimeout(() => device.setScreen('launcher'), 1_500);
      try {
        const gone = ok(
          await harness.call('ui_wait', { selector: { text: 'Network & internet' }, until: 'gone', timeout_s: 20 }),
        );
        expect(gone.data).toMatchObject({ until: 'gone', foreground_package: LAUNCHER });
        expect(Number(gone.data.waited_ms)).toBeGreaterThan(0);
      } finally {
        clearTimeout(timer);
      }
    }
    const late = await harness.call('ui_wait', {
      selector: { text: 'Nothing like this' },
      until: 'visible',
      timeout_s: 1.5,
    });
    expect(late.envelope.error?.code).toBe('OPERATION_TIMEOUT');
    expect(late.envelope.error?.message).toContain('{"text":"Nothing like this"} was still not on screen after 1.5 s');
    // The gate was given back: the next call is not EMULATOR_BUSY.
    ok(await harness.call('ui_get_tree'));
  });

  it('device_list: the device adb sees, online, allowed, configured, with its Android version and model', async () => {
    const listed = ok(await harness.call('device_list'));
    const devices = listed.data.devices as Record<string, unknown>[];
    expect(listed.data.count).toBe(devices.length);
    const mine = devices.find((d) => d.serial === stack.serial);
    expect(mine).toMatchObject({ state: 'device', allowed: true, configured: true });
    expect(String(mine?.android_version)).toMatch(/^\d+(\.\d+)*$/);
    if (stack.device) {
      const props = (await stack.adb(['shell', 'getprop', 'ro.product.model'])).stdout.toString().trim();
      // The model as the device reports it (getprop), one name with emulator_get_status, not adb's underscored one.
      expect(mine?.model).toBe(props);
    }
  });

  it('app_stop and app_clear_data: the app leaves the screen, its data is cleared, an unknown package is APP_NOT_FOUND', async () => {
    const notes = ON_EMULATOR ? SETTINGS : 'com.example.notes';
    if (!ON_EMULATOR) {
      ok(await harness.call('app_open', { package_name: notes }));
      const stop = ok(await harness.call('app_stop', { package_name: notes }));
      expect(stop.data).toMatchObject({ stopped_package: notes });
      expect(stop.data.foreground_package).not.toBe(notes);
      expect(stop.evidence?.artifact_id).toMatch(/-app-stop\.png$/);
      ok(await harness.call('app_open', { package_name: notes }));
      const cleared = ok(await harness.call('app_clear_data', { package_name: notes }));
      expect(cleared.data).toMatchObject({ cleared_package: notes });
      expect(cleared.data.foreground_package).not.toBe(notes);
      expect(stack.device?.logEntries().some((e) => e.detail.endsWith(`pm clear ${notes}`))).toBe(true);
    }
    const missing = await harness.call('app_clear_data', { package_name: 'com.example.not.installed' });
    expect(missing.envelope.error?.code).toBe('APP_NOT_FOUND');
  });

  it('app_open_link: a deep link opens its app as one quoted word on the device; no handler is APP_NOT_FOUND; a hostile link never reaches adb', async () => {
    await settingsHome();
    const window = stack.device ? logWindow(stack.device) : null;
    if (!ON_EMULATOR) {
      const opened = ok(
        await harness.call('app_open_link', {
          url: 'notes://history?tab=1&from=mail#top',
          package_name: 'com.example.notes',
        }),
      );
      const { after, ...answered } = opened.data as Record<string, unknown>;
      expect(answered).toEqual({ handled_by: 'com.example.notes', foreground_package: 'com.example.notes' });
      // The screen it left, read as ui_get_tree reads it (no flow: a dump, never a session), whole or
      // a diff; the package is the answer's own foreground_package, not repeated, nor the display size.
      expect(after).toMatchObject({ read: expect.stringMatching(/^r[0-9a-z]+$/) as unknown });
      expect(after).not.toHaveProperty('foreground_package');
      expect(after).not.toHaveProperty('screen');
      expect(opened.evidence?.artifact_id).toMatch(/-app-open-link\.png$/);
      expect(stack.device?.currentScreen().screenId).toBe('notes_history');
      const entries = window!.since();
      const log = formatLog(entries);
      expect(
        entries.filter((e) => e.kind === 'shell' && e.detail.includes('am start')).map((e) => e.detail),
        log,
      ).toEqual([
        "shell_v2: am start -W -a android.intent.action.VIEW -d 'notes://history?tab=1&from=mail#top' com.example.notes",
      ]);
      // One command: `&` and `#` stayed inside the word (no background job, no comment, nothing unknown run).
      expect(
        entries.filter((e) => e.kind === 'unknown-command'),
        log,
      ).toEqual([]);
      expect(
        entries.filter((e) => e.kind === 'uia2'),
        log,
      ).toEqual([]);
    } else {
      const opened = ok(await harness.call('app_open_link', { url: 'https://example.com/' }));
      expect(opened.evidence?.artifact_id).toMatch(/-app-open-link\.png$/);
    }
    const nobody = await harness.call('app_open_link', { url: 'nosuchscheme://orders/42?token=SECRET' });
    expect(nobody.envelope.error?.code).toBe('APP_NOT_FOUND');
    expect(nobody.envelope.error?.message).toBe(
      "No app on the device opens this nosuchscheme: link (am start: unable to resolve Intent), so nothing was opened. Check the link's scheme and host against what the app declares; app_list_installed lists the apps.",
    );
    expect(nobody.envelope.evidence?.artifact_id).toMatch(/-failure-app-open-link\.png$/);
    const before = stack.device?.logEntries().length ?? 0;
    for (const url of [
      "https://x.com/'; reboot; '",
      'https://x.com/$(reboot)',
      'https://x.com/a b',
      'file:///sdcard/x',
    ]) {
      const refused = await harness.call('app_open_link', { url });
      expect(refused.envelope.error?.code, url).toBe('INVALID_ARGUMENT');
    }
    if (stack.device)
      expect(
        stack.device
          .logEntries()
          .slice(before)
          .map((e) => `${e.kind} ${e.detail}`),
      ).toEqual([]);
  });

  it('notifications_open: the shade comes down as a tree with refs; a notification is tapped by its ref; device_back closes the shade', async () => {
    await settingsHome();
    const window = stack.device ? logWindow(stack.device) : null;
    const shade = ok(await harness.call('notifications_open'));
    expect(shade.evidence?.artifact_id).toMatch(/-notifications-open\.png$/);
    const actions = shade.data.actions as { ref: string; label?: string; text?: string; resource_id?: string }[];
    expect(actions.length, JSON.stringify(shade.data)).toBeGreaterThan(0);
    expect(actions.every((a) => /^e[0-9a-z]+$/.test(a.ref))).toBe(true);
    if (stack.device) {
      const entries = window!.since();
      expect(
        entries.filter(
          (e) =>
            e.kind === 'uia2' && /^POST \/session\/[^/]+\/appium\/device\/open_notifications -> 200$/.test(e.detail),
        ),
        formatLog(entries),
      ).toHaveLength(1);
      expect(stack.device.currentScreen().screenId).toBe('notification_shade');
      // The activity behind stays resumed: the foreground read through adb is Settings, under System UI's NotificationShade window.
      expect(shade.data.foreground_package).toBe(SETTINGS);
      // The row is named by its first text (the app's name); its title and text are among the screen's texts.
      expect(JSON.stringify(shade.data)).toContain('Buy milk before 6 pm');
      const reminder = actions.find((a) => a.text === 'Notes');
      expect(reminder, JSON.stringify(actions)).toBeTruthy();
      const tapped = ok(await harness.call('ui_tap', { selector: { ref: reminder!.ref } }));
      expect(tapped.data.foreground_package).toBe('com.example.notes');
      expect(stack.device.currentScreen().screenId).toBe('notes_main');
      ok(await harness.call('notifications_open'));
    }
    const back = ok(await harness.call('device_back'));
    if (stack.device) {
      expect(stack.device.currentScreen().screenId).not.toBe('notification_shade');
      expect(back.data.foreground_package).toBe('com.example.notes');
    }
  });

  it('device_rotate: landscape through the driver turns the display (rotation 3, 2400×1080 everywhere); the tree and a tap follow it; portrait turns it back', async () => {
    await settingsHome();
    const window = stack.device ? logWindow(stack.device) : null;
    try {
      const turned = ok(await harness.call('device_rotate', { orientation: 'landscape' }));
      expect(turned.data).toMatchObject({ orientation: 'landscape', foreground_package: SETTINGS });
      expect(turned.evidence?.artifact_id).toMatch(/-device-rotate\.png$/);
      const tree = ok(await harness.call('ui_get_tree', { include_bounds: true }));
      const screen = tree.data.screen as { width: number; height: number };
      expect(screen.width).toBeGreaterThan(screen.height);
      const capture = ok(await harness.call('screen_capture'));
      expect((capture.data.width as number) > (capture.data.height as number)).toBe(true);
      if (stack.device) {
        const entries = window!.since();
        expect(
          entries.filter((e) => e.kind === 'uia2' && /^POST \/session\/[^/]+\/orientation -> 200$/.test(e.detail)),
          formatLog(entries),
        ).toHaveLength(1);
        expect(stack.device.dumpXml()).toMatch(/<hierarchy rotation="3">/);
        expect(screen).toEqual({ width: 2400, height: 1080 });
        // A tap by the landscape tree's ref lands on that element in the landscape layout.
        const apps = (tree.data.actions as { ref: string; label?: string; text?: string }[]).find(
          (a) => a.text === 'Apps',
        );
        expect(apps).toBeTruthy();
        ok(await harness.call('ui_tap', { selector: { ref: apps!.ref } }));
        expect(stack.device.currentScreen().screenId).toBe('settings_apps');
      }
    } finally {
      const back = ok(await harness.call('device_rotate', { orientation: 'portrait' }));
      expect(back.data).toMatchObject({ orientation: 'portrait' });
    }
    const upright = ok(await harness.call('ui_get_tree'));
    const screen = upright.data.screen as { width: number; height: number };
    expect(screen.height).toBeGreaterThan(screen.width);
    const refused = await harness.call('device_rotate', { orientation: 'LANDSCAPE' });
    expect(refused.envelope.error?.code).toBe('INVALID_ARGUMENT');
  });

  it('device_key refuses an unknown key as INVALID_ARGUMENT without reaching the device', async () => {
    const refused = await harness.call('device_key', { key: 'power' });
    expect(refused.envelope.error?.code).toBe('INVALID_ARGUMENT');
  });
});
