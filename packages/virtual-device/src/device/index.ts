/** The device side of the virtual Android device: factories, control API and fault names. */
export {
  EMULATOR_BUILD_SERIALNO,
  VirtualDevice,
  type AnrOptions,
  type CurrentScreen,
  type StaticScreenOptions,
  type VirtualDeviceOptions,
} from './VirtualDevice.js';
export type { Fault, FaultKind, FaultTarget } from './faults.js';
export type { ClickRecord, ClickSource } from './ui.js';
export type { UiElement } from './uiTree.js';
export type { DeviceClock } from './clock.js';
export { realClock } from './clock.js';
export {
  BUILT_IN_DISPLAY,
  FOLDABLE_DISPLAYS,
  type DeviceTraitOptions,
  type PasswordText,
  type Sleep,
  type VirtualDisplay,
} from './traits.js';
export { DEFAULT_BACK_FOCUS_LAG, LAST_ANR_LIFETIME_MS, type BackFocusLag, type LastAnr } from './windowState.js';
