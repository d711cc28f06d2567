import type { AppResetService } from './services/AppResetService.js';
import type { AppInstallService } from './services/AppInstallService.js';
import type { AppLaunchService } from './services/AppLaunchService.js';
import type { CaptureService } from './services/CaptureService.js';
import type { DiagnosticsService } from './services/DiagnosticsService.js';
import type { DeviceListService } from './services/DeviceListService.js';
import type { UiSessionService } from './services/UiSessionService.js';
import type { SettingsService } from './services/SettingsService.js';
import type { StatusService } from './services/StatusService.js';
import type { TreeService } from './services/TreeService.js';
import type { UiActionService } from './services/UiActionService.js';
import type { WaitService } from './services/WaitService.js';
import type { LinkService } from './links/LinkService.js';

/** One service per capability; the MCP tools are thin translations onto these. */
export interface HarnessServices {
  readonly status: StatusService;
  readonly tree: TreeService;
  readonly capture: CaptureService;
  readonly appLaunch: AppLaunchService;
  readonly sessions: UiSessionService;
  readonly actions: UiActionService;
  readonly settings: SettingsService;
  /** ui_wait (toolset `wait`). */
  readonly waits: WaitService;
  /** device_list (toolset `device`). */
  readonly devices: DeviceListService;
  /** app_stop, app_clear_data (toolset `apps`). */
  readonly appReset: AppResetService;
  /** app_install (toolset `apps`). */
  readonly appInstall: AppInstallService;
  /** app_open_link (toolset `apps`). */
  readonly links: LinkService;
  /** app_logs, app_crashes (toolset `diagnostics`). */
  readonly diagnostics: DiagnosticsService;
}
