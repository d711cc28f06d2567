/**
 * The fixtures sweep through the whole stack: every real dump in ../shared/fixtures
 * is shown by the virtual device as a static screen, `ui_get_tree` summarises it (through
 * `uiautomator dump`), and its offered entries are tapped by their ref (ambiguous ones and
 * those without selector included), and enabled, unambiguous, uncovered selectors by themselves,
 * over real stdio → the built server → real adb → real Appium 3 + UiAutomator2, in ONE flow per dump.
 * An entry no tap can reach (not_actionable) must come without a ref, and its selector is refused.
 * The device's own log must show, per tap, exactly one find that matched exactly one element
 * and exactly one click, inside the bounds the summary advertised.
 *
 * What CI (`npm test`) checks: every dump is read through the stack, every entry of its summary is
 * checked for its ref (none when not_actionable), and on a third of the dumps (a part that turns
 * with the UTC day, so three days tap them all; ANDROID_MCP_E2E_SWEEP_PART=0|1|2 picks one) one tap of
 * each KIND the dump offers is made (stratified: how it is sent × the selector's form × role × flags;
 * support/sweepSample.ts), the same checks on each tap. What the scheduled run adds (ANDROID_MCP_E2E_SWEEP=full, `npm run
 * test:sweep`, .github/workflows/sweep.yml, nightly): every entry by its ref and every ready
 * selector, about 1,900 taps against CI's few hundred. That every offered selector and ref of every
 * dump resolves to exactly its node is checked for all of them in the unit tier, without the stack
 * (test/unit/domain/fixtures.test.ts, test/unit/domain/refs.test.ts).
 *
 * One adb server, one Appium and one harness process for the whole sweep; the dumps are
 * swapped behind one adb transport (SwitchableDevice). ANDROID_MCP_E2E_SWEEP_LIMIT=N makes
 * at most N taps per dump, chosen evenly (a quick local run).
 * Skipped with a message when ../shared/fixtures is absent, and on a real emulator (it needs
 * the virtual device to show a dump).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess } from './support/harnessClient.js';
import { ON_EMULATOR, formatLog, logWindow, startStack, type E2eStack } from './support/stack.js';
import { boxOf, isReady, selectorOf, nameOf, pointInside, type WireSummary } from './support/summary.js';
import { SWEEP_PARTS, sweepModeFrom, sweepPartFrom, tapsDump, tapsFor, type SweepTap } from './support/sweepSample.js';
import { SwitchableDevice } from './support/switchableDevice.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesRoot = resolve(here, '..', '..', '..', 'shared', 'fixtures');
const present = existsSync(fixturesRoot);
const files = present
  ? ['dumps', 'appium-source'].flatMap((dir) => {
      const full = join(fixturesRoot, dir);
      return existsSync(full)
        ? readdirSync(full)
            .filter((f) => f.endsWith('.xml'))
            .sort()
            .map((f) => join(dir, f))
        : [];
    })
  : [];
const mode = sweepModeFrom(process.env);
/** The part of the dumps the stratified run taps (the others are read and their refs checked). */
const part = sweepPartFrom(process.env, Date.now());

if (!present)
  process.stderr.write(
    `[skip] fixtures sweep (e2e): ${fixturesRoot} is absent (clone ../shared next to the repository)\n`,
  );

interface FileReport {
  readonly offered: number;
  readonly tried: number;
  readonly failures: string[];
  readonly ms: number;
}

const reports = new Map<string, FileReport>();
let refTaps = 0;
let notActionable = 0;
/** Refs a tap's `after` no longer offered (the model would not have them): not tapped. */
let droppedByAfter = 0;

/** The refs the model holds after an action's `after`: the whole screen's, or the last ones with a diff applied. */
function heldAfter(
  held: ReadonlySet<string | undefined>,
  after: { diff_of?: string; actions?: { ref: string }[]; added?: { ref: string }[]; removed?: string[] },
): Set<string | undefined> {
  if (after.diff_of === undefined) return new Set<string | undefined>((after.actions ?? []).map((e) => e.ref));
  const removed = new Set(after.removed ?? []);
  return new Set([
    ...[...held].filter((ref) => ref === undefined || !removed.has(ref)),
    ...(after.added ?? []).map((e) => e.ref),
  ]);
}

const title = ON_EMULATOR
  ? 'fixtures sweep through the full stack [skipped on a real emulator: needs the virtual device to show each dump (--screen)]'
  : 'fixtures sweep through the full stack (virtual device shows each ../shared/fixtures dump)';

(ON_EMULATOR || !present ? describe.skip : describeWithAdb)(title, () => {
  let stack: E2eStack;
  let switchable: SwitchableDevice;
  let harness: HarnessProcess;
  const started = Date.now();

  beforeAll(async () => {
    switchable = new SwitchableDevice(VirtualDevice.withDefaultScenario());
    stack = await startStack({ label: 'sweep', services: switchable });
    harness = await startHarness(stack.harnessEnv());
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
    let tried = 0;
    let failed = 0;
    const lines: string[] = [];
    for (const [file, report] of reports) {
      tried += report.tried;
      failed += report.failures.length;
      if (report.failures.length > 0)
        lines.push(
          `  ${file}: ${report.failures.length} of ${report.tried} failed\n    ${report.failures.slice(0, 5).join('\n    ')}`,
        );
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let offered = 0;
    for (const report of reports.values()) offered += report.offered;
    const modeNote =
      mode.kind === 'full'
        ? ' (full sweep)'
        : mode.kind === 'limit'
          ? ` (ANDROID_MCP_E2E_SWEEP_LIMIT=${mode.taps})`
          : ` (stratified: part ${part} of ${SWEEP_PARTS}, one tap per kind of entry on each dump of the part, of ${offered} entries offered; ANDROID_MCP_E2E_SWEEP_PART=${part} runs this part again, ANDROID_MCP_E2E_SWEEP=full taps them all)`;
    console.error(
      `[fixtures sweep e2e] ${reports.size} dumps, ${tried} taps (${refTaps} by ref, each held from the last tap's after, ${droppedByAfter} no longer offered by an after; the rest by selector; ${notActionable} entries not actionable, offered without ref)${modeNote}, ` +
        `${failed} failures, ${seconds} s\n${lines.join('\n')}`,
    );
  }, 60_000);

  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  const promised =
    mode.kind === 'full'
      ? "every entry's ref and every ready selector is tapped once"
      : 'one tap of each kind it offers';
  for (const [index, file] of files.entries()) {
    const tapped = tapsDump(mode, index, part);
    const checks = tapped
      ? `${promised}, inside its advertised bounds`
      : `read and every entry's ref checked (tapped when the part is ${index % SWEEP_PARTS})`;
    it(`${file}: ${checks}`, async () => {
      const t0 = Date.now();
      const xml = readFileSync(join(fixturesRoot, file), 'utf8');
      const vd = VirtualDevice.withStaticScreen(xml);
      switchable.switchTo(vd);
      const staticPackage = vd.currentScreen().package;

      const treeAnswer = await harness.call('ui_get_tree', { include_bounds: true });
      expect(treeAnswer.envelope.ok, JSON.stringify(treeAnswer.envelope).slice(0, 1000)).toBe(true);
      const summary = treeAnswer.envelope.data as unknown as WireSummary;
      expect(summary.foreground_package).toBe(staticPackage);
      // Every entry by its ref (ambiguous ones and those without selector included),
      // and every ready entry by its selector as well (the summary's first promise). An entry no
      // tap can reach says so (not_actionable) and has no ref: its selector, if any, is refused.
      const unreachable = summary.actions.filter((entry) => entry.not_actionable !== undefined);
      for (const entry of unreachable) expect(entry.ref, JSON.stringify(entry)).toBeUndefined();
      // Every other entry has its ref, whether or not this run taps it (stratified runs tap a few).
      const withoutRef = summary.actions.filter((e) => e.not_actionable === undefined && e.ref === undefined);
      expect(withoutRef, 'entries a tap reaches but offered without a ref').toEqual([]);
      notActionable += unreachable.length;
      if (!tapped) {
        reports.set(file, { offered: summary.actions.length, tried: 0, failures: [], ms: Date.now() - t0 });
        return;
      }
      const taps: SweepTap[] = [
        ...summary.actions
          .filter((entry) => entry.not_actionable === undefined)
          .map((entry) => ({ entry, by: 'ref' as const })),
        ...summary.actions.filter(isReady).map((entry) => ({ entry, by: 'selector' as const })),
        ...unreachable
          .filter((entry) => selectorOf(entry) !== undefined && !entry.ambiguous)
          .map((entry) => ({ entry, by: 'refused' as const })),
      ];
      const chosen = tapsFor(taps, mode, index);
      const failures: string[] = [];

      let sessionId = '';
      const openFlow = async (): Promise<void> => {
        const open = await harness.call('ui_session_open');
        expect(open.envelope.ok, JSON.stringify(open.envelope)).toBe(true);
        sessionId = open.envelope.data.session_id as string;
      };
      await openFlow();
      // The refs the model holds: the read's, then each tap's `after` applied (a diff keeps the
      // refs it does not name). A ref tapped here is one the last `after` left valid.
      let held = new Set<string | undefined>(summary.actions.map((e) => e.ref));
      try {
        for (const { entry, by } of chosen) {
          if (by === 'ref' && !held.has(entry.ref)) {
            droppedByAfter += 1;
            continue;
          }
          const sent = by === 'ref' ? { ref: entry.ref } : selectorOf(entry);
          if (by === 'refused') {
            // The summary said no tap reaches it: the harness refuses it and nothing is clicked.
            const clicksBefore = vd.clicks().length;
            const answer = await harness.call('ui_tap', { selector: sent, session_id: sessionId });
            if (answer.envelope.ok || vd.clicks().length !== clicksBefore)
              failures.push(
                `${JSON.stringify(sent)} (${entry.not_actionable}): ${answer.envelope.ok ? 'tapped' : answer.envelope.error?.code}, ${vd.clicks().length - clicksBefore} clicks`,
              );
            continue;
          }
          const what = `${JSON.stringify(sent)} (${nameOf(entry).slice(0, 40)})`;
          const version = vd.ui.version;
          const window = logWindow(vd);
          const clicksBefore = vd.clicks().length;
          // A ref tap reads the screen it left (after) and the next ref comes from it; a selector tap
          // leaves it out (observe: false), as a scripted flow would, which keeps the sweep's time.
          const answer = await harness.call('ui_tap', {
            selector: sent,
            session_id: sessionId,
            ...(by === 'selector' ? { observe: false } : {}),
          });
          const entries = window.since();
          if (answer.envelope.ok && by === 'ref') {
            const after = answer.envelope.data.after as Parameters<typeof heldAfter>[1] | undefined;
            if (after === undefined || 'error' in after)
              failures.push(`${what}: no readable after (${JSON.stringify(after).slice(0, 200)})`);
            else held = heldAfter(held, after);
          }
          const finds = entries.filter((e) => e.kind === 'uia2' && e.detail.startsWith('find '));
          const clicks = vd.clicks().slice(clicksBefore);
          if (!answer.envelope.ok) {
            failures.push(`${what}: ${answer.envelope.error?.code} ${answer.envelope.error?.message?.slice(0, 200)}`);
            if (
              answer.envelope.error?.code === 'OPERATION_TIMEOUT' ||
              answer.envelope.error?.code === 'INVALID_UI_SESSION'
            )
              await openFlow();
            // One find. It may match more than one node when they are twins that press one element (a
            // label inside its row, nested nodes with one content-desc: contract, "One element or none"):
            // what must hold is the one click below, inside the entry's bounds.
          } else if (finds.length !== 1 || !/-> [1-9]\d* element\(s\)$/.test(finds[0]!.detail)) {
            failures.push(`${what}: the find matched ${finds.map((f) => f.detail).join('; ') || 'nothing logged'}`);
          } else if (clicks.length !== 1 || entries.filter((e) => e.kind === 'click').length !== 1) {
            failures.push(`${what}: ${clicks.length} clicks\n${formatLog(entries.filter((e) => e.kind === 'click'))}`);
          } else if (!pointInside(clicks[0]!.x, clicks[0]!.y, entry)) {
            failures.push(
              `${what}: click at (${clicks[0]!.x},${clicks[0]!.y}) outside ${JSON.stringify(boxOf(entry))}`,
            );
          }
          if (by === 'ref') refTaps += 1;
          // Static screens do not navigate, but a tap may still change state (focus, IME): reset it.
          if (vd.ui.version !== version) vd.setScreen('static');
        }
      } finally {
        const closed = await harness.call('ui_session_close', { session_id: sessionId });
        expect(closed.envelope.ok, JSON.stringify(closed.envelope)).toBe(true);
      }
      reports.set(file, { offered: summary.actions.length, tried: chosen.length, failures, ms: Date.now() - t0 });
      expect(failures, `${file}: ${failures.length} of ${chosen.length} taps failed`).toEqual([]);
    });
  }
});
