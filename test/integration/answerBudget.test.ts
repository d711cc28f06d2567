/**
 * Through the whole stack: the largest real dump in ../shared/fixtures shown by the
 * virtual device as a static screen, read over real stdio → the built server → real adb
 * (`uiautomator dump`). Every `ui_get_tree` answer, measured as the whole JSON-RPC result the client
 * receives (text block and structuredContent) with gpt-tokenizer (o200k), stays under Claude Code's
 * 25,000 tokens, and the parts read through `raw_offset` rebuild the device's XML exactly.
 * Skipped with a message when ../shared/fixtures is absent.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startHarness, type HarnessProcess } from '../e2e/support/harnessClient.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';
import { ensureBuilt } from '../support/rawServer.js';

const CLAUDE_CODE_LIMIT = 25_000;
const fixturesRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));
if (!present)
  process.stderr.write(
    `[skip] answer budget (integration): ${fixturesRoot} is absent (clone ../shared next to the repository)\n`,
  );

function largestFixture(): string {
  const files = ['dumps', 'appium-source'].flatMap((dir) => {
    const full = join(fixturesRoot, dir);
    return existsSync(full)
      ? readdirSync(full)
          .filter((f) => f.endsWith('.xml'))
          .map((f) => join(full, f))
      : [];
  });
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (largest === undefined) throw new Error(`no dump under ${fixturesRoot}`);
  return largest;
}

(present ? describeWithAdb : describe.skip)(
  'every ui_get_tree answer under 25,000 tokens on the largest real dump',
  () => {
    let adb: PrivateAdbServer;
    let attached: AttachedDevice;
    let harness: HarnessProcess;
    let scratch: string;
    const file = present ? largestFixture() : '';

    beforeAll(async () => {
      ensureBuilt();
      scratch = mkdtempSync(join(tmpdir(), 'amh-budget-'));
      adb = await startAdbServer();
      attached = await attachDeviceToAdb(VirtualDevice.withStaticScreen(readFileSync(file, 'utf8')), adb);
      harness = await startHarness({
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? scratch,
        ANDROID_UDID: attached.serial,
        ANDROID_MCP_ALLOW_SERIALS: attached.serial,
        ANDROID_ADB_SERVER_PORT: String(adb.port),
        ANDROID_MCP_ARTIFACTS_DIR: join(scratch, 'artifacts'),
        ANDROID_MCP_LOCK_DIR: join(scratch, 'locks'),
        ANDROID_MCP_LOG_LEVEL: 'info',
      });
    }, 120_000);

    afterAll(async () => {
      await harness?.close();
      await attached?.stop();
      await adb?.stop();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    it('summary alone, and include_raw part by part: each whole JSON-RPC result under the limit; the parts are the device XML', async () => {
      const tokensOf = (result: unknown): number => encode(JSON.stringify(result)).length;
      const plain = await harness.call('ui_get_tree');
      expect(plain.envelope.ok, JSON.stringify(plain.envelope.error)).toBe(true);
      const plainTokens = tokensOf(plain.result);
      expect(plainTokens).toBeLessThan(CLAUDE_CODE_LIMIT);

      const parts: string[] = [];
      const tokens: number[] = [];
      const digests = new Set<string>();
      let offset: number | undefined;
      for (let guard = 0; guard < 200; guard += 1) {
        const answer = await harness.call(
          'ui_get_tree',
          offset === undefined ? { include_raw: true } : { include_raw: true, raw_offset: offset },
        );
        expect(answer.envelope.ok, JSON.stringify(answer.envelope.error)).toBe(true);
        tokens.push(tokensOf(answer.result));
        const data = answer.envelope.data as Record<string, unknown>;
        parts.push(String(data.ui_tree));
        const note = data.raw_truncated as { next_offset?: number; sha256: string; total_chars: number } | undefined;
        expect(note, 'the largest dump does not fit one answer: the first part must say so').toBeDefined();
        digests.add(String(note?.sha256));
        if (note?.next_offset === undefined) break;
        offset = note.next_offset;
      }
      expect(Math.max(...tokens)).toBeLessThan(CLAUDE_CODE_LIMIT);
      expect(digests.size, 'a static screen: every part from the same XML').toBe(1);
      const xml = parts.join('');
      expect(xml.startsWith('<?xml')).toBe(true);
      expect(xml.endsWith('</hierarchy>')).toBe(true);
      // The device's own dump, as `adb exec-out uiautomator dump /dev/tty` prints it, without its trailing line.
      const direct = await adb.adb(['-s', attached.serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty']);
      expect(direct.stdout.toString('utf8').replace(/UI hierchary dumped to: \/dev\/tty\n?$/, '')).toBe(xml);
      process.stderr.write(
        `[budget] ${file.slice(fixturesRoot.length + 1)} on the virtual device: XML ${xml.length} chars; summary answer ${plainTokens} tokens; ` +
          `include_raw in ${parts.length} parts, largest answer ${Math.max(...tokens)} tokens (o200k, whole JSON-RPC result)\n`,
      );
    }, 120_000);
  },
);
