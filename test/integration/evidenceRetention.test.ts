/**
 * The evidence retention bound through the real adb and a real Appium 3, on two virtual devices:
 * two harness processes share one evidence directory with a bound of 3 files, as two servers on
 * one machine would. The stdio one holds a capture in an open UI session (device A); the HTTP one
 * acts on device B. The oldest go, the held one stays while its session lives (the other process
 * reads it on the hold board), and a removed or unknown id answers ARTIFACT_NOT_FOUND over REST
 * and MCP, word for word.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ARTIFACT_ID_PATTERN } from '../../src/domain/evidenceName.js';
import { HOLD_BOARD_FOLDER } from '../../src/infrastructure/fs/FileEvidenceHoldBoard.js';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startHarness, type HarnessProcess } from '../e2e/support/harnessClient.js';
import { describeWithAdb } from '../support/adbServer.js';
import { startHttpHarness, type HttpHarness } from '../support/httpHarness.js';
import { startManyDevicesStack, type ManyDevicesStack } from '../support/manyDevicesStack.js';
import { freePort } from '../support/ports.js';
import { BUILT_BIN, ensureBuilt } from '../support/rawServer.js';

const TOKEN = 'retention-test-token-0123456789abcdef';

/** What both processes answer for an id with no file, under ANDROID_MCP_ARTIFACTS_MAX_FILES=3 and _MAX_MB=50. */
function notFound(id: string): string {
  return (
    `There is no evidence file artifact://${id} in the evidence directory: it was never written there, or it was removed: ` +
    'the evidence retention bound keeps the newest 3 files or 50 MB of evidence and removes the oldest ' +
    '(raise ANDROID_MCP_ARTIFACTS_MAX_FILES or ANDROID_MCP_ARTIFACTS_MAX_MB to keep more; what an open UI session gave out is kept while it lives). ' +
    'resources/list shows the recent ones; take a new one with screen_capture.'
  );
}

describeWithAdb('the evidence retention bound, two processes sharing one evidence directory', () => {
  let many: ManyDevicesStack;
  let stdio: HarnessProcess;
  let http: HttpHarness;
  let base: string;
  let artifacts: string;
  let serialB: string;
  let sessionId: string;
  let heldId: string;
  const shots: string[] = [];

  const evidenceFiles = (): string[] =>
    readdirSync(artifacts)
      .filter((name) => ARTIFACT_ID_PATTERN.test(name))
      .sort();
  const boardEntries = (): string[] =>
    existsSync(join(artifacts, HOLD_BOARD_FOLDER)) ? readdirSync(join(artifacts, HOLD_BOARD_FOLDER)) : [];

  async function screenshotOnB(): Promise<string> {
    const response = await fetch(`${base}/devices/${serialB}/screenshot`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const text = await response.text();
    expect(response.status, text.slice(0, 400)).toBe(200);
    return (JSON.parse(text) as { evidence: { artifact_id: string } }).evidence.artifact_id;
  }

  async function download(id: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${base}/artifacts/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    return {
      status: response.status,
      text: response.headers.get('content-type') === 'image/png' ? '<png>' : await response.text(),
    };
  }

  async function readOverMcp(id: string): Promise<{ code?: number; message: string }> {
    return stdio.client.readResource({ uri: `artifact://${id}` }).then(
      () => ({ message: '<served>' }),
      (error: unknown) => error as { code?: number; message: string },
    );
  }

  beforeAll(async () => {
    ensureBuilt();
    many = await startManyDevicesStack({
      label: 'retention',
      devices: [
        VirtualDevice.withDefaultScenario({}),
        VirtualDevice.withDefaultScenario({ serialNumber: 'R58M0RETAIN' }),
      ],
    });
    artifacts = join(many.scratch, 'artifacts');
    const [serialA, b] = many.serials as [string, string];
    serialB = b;
    const env = (serial: string, extra: Record<string, string> = {}): Record<string, string> =>
      many.harnessEnv({
        ANDROID_UDID: serial,
        ANDROID_MCP_ARTIFACTS_MAX_FILES: '3',
        ANDROID_MCP_ARTIFACTS_MAX_MB: '50',
        ANDROID_MCP_ACTION_TIMEOUT: '20',
        ANDROID_MCP_CONNECT_TIMEOUT: '60',
        ...extra,
      });
    stdio = await startHarness(env(serialA));
    http = await startHttpHarness(env(serialB, { ANDROID_MCP_HTTP_TOKEN: TOKEN }), [
      '--port',
      String(await freePort()),
    ]);
    base = new URL(http.url).origin;
  }, 180_000);

  afterAll(async () => {
    await stdio?.close();
    await http?.stop();
    await many?.stop();
  }, 60_000);

  it('keeps the newest 3 files, oldest out first, and the capture an open UI session gave out in the other process', async () => {
    const open = await stdio.call('ui_session_open');
    expect(open.envelope.ok, JSON.stringify(open.envelope.error)).toBe(true);
    sessionId = String(open.envelope.data.session_id);
    const held = await stdio.call('screen_capture', { session_id: sessionId });
    expect(held.envelope.ok, JSON.stringify(held.envelope.error)).toBe(true);
    heldId = held.envelope.evidence!.artifact_id;
    // The stdio process says on the board what it holds.
    expect(boardEntries()).toHaveLength(1);

    for (let i = 0; i < 4; i += 1) shots.push(await screenshotOnB());
    expect(evidenceFiles()).toEqual([heldId, shots[2], shots[3]]);
    expect((await download(heldId)).status).toBe(200);
    expect((await download(shots[3]!)).status).toBe(200);
  }, 180_000);

  it('a removed id and one never written answer ARTIFACT_NOT_FOUND: REST 404 and the MCP resource, word for word', async () => {
    for (const id of [shots[0]!, '20200101-000000-000001-screen.png']) {
      const rest = await download(id);
      expect(rest.status).toBe(404);
      expect(JSON.parse(rest.text)).toEqual({
        ok: false,
        error: { code: 'ARTIFACT_NOT_FOUND', message: notFound(id) },
      });
      const mcp = await readOverMcp(id);
      expect(mcp.code).toBe(-32002);
      // The client's SDK puts "MCP error <code>: " in front; the server's message starts with the code.
      expect(mcp.message).toBe(`MCP error -32002: ARTIFACT_NOT_FOUND: ${notFound(id)}`);
    }
    // The held capture is served over MCP too, by the process that wrote it.
    expect((await readOverMcp(heldId)).message).toBe('<served>');
  }, 60_000);

  it('once the UI session is closed, its capture is the oldest and goes with the next write', async () => {
    const closed = await stdio.call('ui_session_close', { session_id: sessionId });
    expect(closed.envelope.ok, JSON.stringify(closed.envelope.error)).toBe(true);
    // Its entry went as the session ended: nothing of the stdio process is held any more.
    expect(boardEntries()).toEqual([]);
    shots.push(await screenshotOnB());
    expect(evidenceFiles()).toEqual([shots[2], shots[3], shots[4]]);
    const rest = await download(heldId);
    expect(rest.status).toBe(404);
    expect(JSON.parse(rest.text)).toEqual({
      ok: false,
      error: { code: 'ARTIFACT_NOT_FOUND', message: notFound(heldId) },
    });
    expect((await readOverMcp(heldId)).message).toBe(`MCP error -32002: ARTIFACT_NOT_FOUND: ${notFound(heldId)}`);
  }, 60_000);

  it('a bound that is not a number stops the start (exit 2) with what to give instead', async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ANDROID_MCP_ARTIFACTS_DIR: artifacts,
      ANDROID_MCP_ARTIFACTS_MAX_FILES: 'lots',
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [BUILT_BIN], { env, timeout: 20_000 }, (_error, _stdout, text) =>
        resolve({ code: child.exitCode, stderr: String(text) }),
      );
      child.stdin?.end();
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'android-mcp-harness: ANDROID_MCP_ARTIFACTS_MAX_FILES="lots" is not usable: give a whole number of files up to 1000000, or 0 for no such bound (default 500). ' +
        'The server did not start: another bound than the one meant could remove evidence you want to keep.',
    );
  }, 30_000);
});
