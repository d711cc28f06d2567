/**
 * The screen an action left (docs/reference/contract.md §2, "The screen after an action"): read once the
 * foreground has settled and the tree shows the foreground app, every FOREGROUND_SETTLE_INTERVAL_MS
 * within the same FOREGROUND_SETTLE_TIMEOUT_MS bound as the foreground, counted from the end of the
 * action. At the bound the last reading goes out marked unsettled: never a hang.
 */
import { HarnessError } from '../../domain/errors.js';
import type { Clock, DeviceGateway } from '../../domain/ports.js';
import { isVisible } from '../../domain/tree/nodeFacts.js';
import type { WindowState } from '../../domain/tree/screen.js';
import type { UiSessions } from '../sessions/UiSessions.js';
import { densityOf, readScreenWith, type ScreenReading } from './ScreenReader.js';
import type { ScreenReads } from './ScreenReads.js';
import {
  FOREGROUND_SETTLE_INTERVAL_MS,
  FOREGROUND_SETTLE_TIMEOUT_MS,
  type SettledForeground,
} from './settledForeground.js';

export interface SettledScreen {
  readonly reading: ScreenReading;
  readonly settled: boolean;
}

/** A focused window that is not drawn yet has no visible node in the tree. */
function showsForeground(reading: ScreenReading, window: WindowState): boolean {
  const pkg = window.foregroundPackage;
  return pkg !== null && reading.tree.nodes.some((node) => node.packageName === pkg && isVisible(node));
}

/**
 * `source` reads the tree the way the caller may (a session's page source inside a session, never
 * a dump there); `foreground` is the settled foreground read after the action; `actionEndedMs` the
 * clock's monotonic time when the action returned.
 */
export async function readSettledScreen(
  device: DeviceGateway,
  clock: Clock,
  source: () => Promise<string>,
  foreground: SettledForeground,
  actionEndedMs: number,
): Promise<SettledScreen> {
  const deadline = actionEndedMs + FOREGROUND_SETTLE_TIMEOUT_MS;
  let window = foreground.window;
  const density = densityOf(device, window);
  for (;;) {
    const reading = await readScreenWith(source(), density, window);
    // The foreground's own bound passed already: what was read is all there is.
    if (!foreground.settled) return { reading, settled: false };
    if (showsForeground(reading, window)) return { reading, settled: true };
    if (clock.monotonicMs() + FOREGROUND_SETTLE_INTERVAL_MS > deadline) return { reading, settled: false };
    await clock.sleep(FOREGROUND_SETTLE_INTERVAL_MS);
    window = await device.getWindowState();
  }
}

/**
 * An action that ran through adb alone (a launch, a force-stop): its `after` reads the screen the
 * way ui_get_tree would — the open flow's or warm session's page source when there is one, else
 * `uiautomator dump` — so observing opens no session.
 */
export function observerSource(sessions: UiSessions, device: DeviceGateway): () => Promise<string> {
  return async () => {
    const throughSession = await sessions.borrow((session) => session.pageSource());
    return throughSession ? throughSession.value : device.dumpUi();
  };
}

/** The screen after an adb action: the foreground read now (the action waited for its own condition already), then the tree. */
export async function readScreenAfterAdbAction(
  device: DeviceGateway,
  clock: Clock,
  source: () => Promise<string>,
): Promise<SettledScreen> {
  const ended = clock.monotonicMs();
  const window = await device.getWindowState();
  return readSettledScreen(device, clock, source, { window, settled: window.foregroundPackage !== null }, ended);
}

/**
 * The read of `after`, where a tree that could not be read does not undo the action: the action
 * happened, so its answer stays a success and `after` says why there is no screen. A session or a
 * device that failed (a ceiling, Appium gone, adb gone) still fails the call, so that the flow is
 * closed and the model told, as for any other read of that session.
 */
export async function observed(
  read: Promise<SettledScreen>,
  /** What the reading gets before it is answered: its visual entries (ScreenReads.withVisual). */
  look: (reading: ScreenReading) => Promise<ScreenReading>,
): Promise<SettledScreen | HarnessError> {
  try {
    const seen = await read;
    return { ...seen, reading: await look(seen.reading) };
  } catch (error) {
    if (error instanceof HarnessError && error.code === 'UI_TREE_UNAVAILABLE') return error;
    throw error;
  }
}

/**
 * `after` as the answer carries it: the read (whole or a diff) and `settled: false` when the bound
 * passed, or why it could not be read. `namedPackage`: the `foreground_package` of the action's own
 * `data` (undefined when it names none): `after` repeats it only when its screen shows another.
 */
export function afterOf(
  reads: ScreenReads,
  device: DeviceGateway,
  seen: SettledScreen | HarnessError,
  namedPackage: string | null | undefined,
): Record<string, unknown> {
  if (seen instanceof HarnessError) {
    return {
      settled: false,
      error: {
        code: seen.code,
        message: `The action was done, but the screen could not be read after it: ${seen.message}`,
      },
    };
  }
  return {
    ...reads.answer(device, seen.reading, { diff: true, after: { namedPackage } }),
    ...(seen.settled ? {} : { settled: false }),
  };
}
