/** What the UiAutomator2 server reaches of the device it runs on. */
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from '../device/clock.js';
import type { ScreenActivity } from '../device/faults.js';
import type { Instrumentation } from '../device/instrumentation.js';
import type { SystemState } from '../device/system.js';
import type { DeviceUi } from '../device/ui.js';
import type { CostModel } from '../timing/costModel.js';

export interface Uia2Device {
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly instrumentation: Instrumentation;
  readonly clock: DeviceClock;
  /** Each request's time on a real server (timing/uia2Costs.ts). */
  readonly cost: Pick<CostModel, 'spendUia2'>;
  log(kind: DeviceLogKind, detail: string): void;
  /** The screen of this moment as PNG, drawn off the device's thread. */
  capturePng(): Promise<Buffer>;
  /** The visible FLAG_SECURE window SurfaceFlinger refuses the capture for (the refusal is logged), or null. */
  secureCaptureRefused(): string | null;
  /** The display in its current rotation (Display.getRotation and getSize, as the server reads them). */
  display(): { rotation: 0 | 1 | 2 | 3; width: number; height: number };
  /** 'hang' never answers; a number delays the answer by that many ms. */
  requestFault(subject: string): 'hang' | number;
  /** An injected error this request answers instead of acting (the `uia2-error` fault), or null. */
  requestError(subject: string): { status: number; error: string; message: string } | null;
  /** Whether the screen idles and its active window's root can be read (the idle waits). */
  screenActivity(): ScreenActivity;
}
