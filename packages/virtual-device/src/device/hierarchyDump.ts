/**
 * `uiautomator dump` as AOSP's DumpCommand runs it on this device: it takes the one UiAutomation
 * registration (or fails beside an instrumentation that holds it), waits for idle, reads the root
 * and prints the hierarchy, with the dump faults and a cold launch's empty window applied.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { DumpOutcome } from '../shell/context.js';
import type { CostModel } from '../timing/costModel.js';
import type { DeviceClock } from './clock.js';
import type { FaultInjector } from './faultInjector.js';
import { uiAutomationAlreadyRegistered, type Instrumentation } from './instrumentation.js';
import { toDumpXml } from './serialize.js';
import type { DeviceTraits } from './traits.js';
import type { DeviceUi } from './ui.js';

/** AOSP `DumpCommand`: `uiAutomation.waitForIdle(1000, 1000 * 10)`, the global timeout. */
export const DUMP_IDLE_TIMEOUT_MS = 10_000;

export interface HierarchyDumpDeps {
  readonly ui: DeviceUi;
  readonly instrumentation: Instrumentation;
  readonly traits: DeviceTraits;
  readonly clock: DeviceClock;
  readonly faults: FaultInjector;
  /** How long a dump holds UiAutomation; unset: as long as the cost model says (by node count). */
  readonly dumpDurationMs: number | undefined;
  readonly cost: CostModel;
  log(kind: DeviceLogKind, detail: string): void;
  /** A cold launch whose window has no content yet: the dump still shows what was there before. */
  launchInProgress(): { readonly previousXml: string } | null;
}

/** What `uiautomator dump` prints when the instrumentation already holds UiAutomation (AOSP's stack). */
function alreadyRegisteredStack(): string {
  const msg = uiAutomationAlreadyRegistered('4b0e3b3');
  return (
    'java.lang.RuntimeException: Error while connecting UiAutomation@5f3c8e0[id=-1, displayId=0, flags=0]\n' +
    '\tat android.app.UiAutomation.connectWithTimeout(UiAutomation.java:380)\n' +
    '\tat com.android.uiautomator.core.UiAutomationShellWrapper.connect(UiAutomationShellWrapper.java:60)\n' +
    '\tat com.android.commands.uiautomator.DumpCommand.run(DumpCommand.java:80)\n' +
    '\tat com.android.commands.uiautomator.Launcher.main(Launcher.java:83)\n' +
    '\tat com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)\n' +
    '\tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:355)\n' +
    `Caused by: java.lang.IllegalStateException: ${msg}\n` +
    '\tat android.os.Parcel.createExceptionOrNull(Parcel.java:3069)\n' +
    '\tat android.os.Parcel.createException(Parcel.java:3053)\n' +
    '\tat android.os.Parcel.readException(Parcel.java:3036)\n' +
    '\tat android.os.Parcel.readException(Parcel.java:2978)\n' +
    '\tat android.view.accessibility.IAccessibilityManager$Stub$Proxy.registerUiTestAutomationService(IAccessibilityManager.java:1151)\n'
  );
}

export async function dumpHierarchy(d: HierarchyDumpDeps, signal: AbortSignal): Promise<DumpOutcome> {
  if (!d.instrumentation.acquireForDump()) {
    if (d.traits.dumpConflict === 'killed' && d.instrumentation.uiAutomationHolder() === 'instrumentation') {
      // Suspected on some devices (docs/internals/device-quirks.md, QUIRK-DUMP-KILLED-1): SIGKILL, nothing printed.
      d.log('fault', 'uiautomator dump: killed (exit 137) while the instrumentation holds UiAutomation');
      return { ok: false, code: 137, stdout: '', stderr: '' };
    }
    d.log('shell', 'uiautomator dump: UiAutomation is held by the instrumentation');
    return { ok: false, code: 1, stdout: '', stderr: alreadyRegisteredStack() };
  }
  try {
    if (d.dumpDurationMs === undefined) await d.cost.spend('shell.uiautomatorDump', signal);
    else if (d.dumpDurationMs > 0) await d.clock.sleep(d.dumpDurationMs, signal);
    // DumpCommand: waitForIdle(1000 ms quiet, 10 s global) before it asks for the root; on a
    // screen that never idles the TimeoutException comes after the whole 10 s, in real time.
    if (!d.faults.screenActivity().idles) {
      d.log('fault', `uiautomator dump: waiting up to ${DUMP_IDLE_TIMEOUT_MS} ms for idle`);
      await d.clock.sleep(DUMP_IDLE_TIMEOUT_MS, signal);
      d.log('fault', 'uiautomator dump: could not get idle state');
      return { ok: false, code: 0, stdout: '', stderr: 'ERROR: could not get idle state.\n' };
    }
    const remaining = d.faults.takeNullRoot();
    if (remaining !== null) {
      d.log('fault', `uiautomator dump: null root node (${remaining} more)`);
      return { ok: false, code: 0, stdout: '', stderr: 'ERROR: null root node returned by UiTestAutomationBridge.\n' };
    }
    if (d.faults.has('empty-dump')) {
      return { ok: true, xml: `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0" />` };
    }
    const launching = d.launchInProgress();
    const xml = launching ? launching.previousXml : toDumpXml(d.ui.tree(), d.ui.displayRotation());
    if (d.faults.has('malformed-dump')) {
      return { ok: true, xml: `${xml.slice(0, Math.floor(xml.length / 2))}<node index="0" text="broken` };
    }
    return { ok: true, xml };
  } finally {
    d.instrumentation.releaseDump();
  }
}
