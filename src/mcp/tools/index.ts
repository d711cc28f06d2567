import type { HarnessServices } from '../../application/HarnessServices.js';
import type { ToolDeclaration, ToolDefinition } from '../ToolDefinition.js';
import { DEFAULT_TOOLSETS, type ToolsetName } from '../../domain/toolsets.js';
import { appListInstalledTool } from './core/appListInstalled.js';
import { appOpenTool } from './core/appOpen.js';
import { deviceBackTool } from './core/deviceBack.js';
import { emulatorGetStatusTool } from './core/emulatorGetStatus.js';
import { screenCaptureTool } from './core/screenCapture.js';
import { settingsOpenAppsTool } from './core/settingsOpenApps.js';
import { uiGetTreeTool } from './core/uiGetTree.js';
import { uiScrollTool } from './core/uiScroll.js';
import { uiSessionCloseTool } from './core/uiSessionClose.js';
import { uiSessionOpenTool } from './core/uiSessionOpen.js';
import { uiTapTool } from './core/uiTap.js';
import { uiTypeTextTool } from './core/uiTypeText.js';
import { appClearDataTool } from './apps/appClearData.js';
import { appInstallTool } from './apps/appInstall.js';
import { appStopTool } from './apps/appStop.js';
import { appOpenLinkTool } from './apps/appOpenLink.js';
import { deviceKeyTool } from './device/deviceKey.js';
import { deviceListTool } from './device/deviceList.js';
import { notificationsOpenTool } from './device/notificationsOpen.js';
import { deviceRotateTool } from './device/deviceRotate.js';
import { uiWaitTool } from './wait/uiWait.js';
import { appCrashesTool } from './diagnostics/appCrashes.js';
import { appLogsTool } from './diagnostics/appLogs.js';

/** The contract's twelve (docs/reference/contract.md, "Tools"), exactly these, in this order. */
export const TOOL_NAMES = [
  'emulator_get_status',
  'ui_get_tree',
  'screen_capture',
  'app_list_installed',
  'app_open',
  'ui_session_open',
  'ui_session_close',
  'ui_tap',
  'ui_type_text',
  'ui_scroll',
  'device_back',
  'settings_open_apps',
] as const;

/** Every tool the server knows, core first in contract order, then each toolset's, as declared. */
export const TOOL_DECLARATIONS: readonly ToolDeclaration[] = Object.freeze([
  emulatorGetStatusTool,
  uiGetTreeTool,
  screenCaptureTool,
  appListInstalledTool,
  appOpenTool,
  uiSessionOpenTool,
  uiSessionCloseTool,
  uiTapTool,
  uiTypeTextTool,
  uiScrollTool,
  deviceBackTool,
  settingsOpenAppsTool,
  appInstallTool,
  appStopTool,
  appClearDataTool,
  appOpenLinkTool,
  deviceKeyTool,
  deviceListTool,
  notificationsOpenTool,
  deviceRotateTool,
  uiWaitTool,
  appLogsTool,
  appCrashesTool,
]);

/** Every tool the server knows, bound to the services that run it. */
export function allTools(services: HarnessServices): readonly ToolDefinition[] {
  return TOOL_DECLARATIONS.map((tool) => tool.bind(services));
}

/** The tools the given toolsets switch on; the default is the twelve alone. */
export function createTools(
  services: HarnessServices,
  toolsets: readonly ToolsetName[] = DEFAULT_TOOLSETS,
): readonly ToolDefinition[] {
  return servedTools(allTools(services), toolsets);
}

/** Of every tool (allTools), those the given toolsets switch on. */
export function servedTools(
  everyTool: readonly ToolDefinition[],
  toolsets: readonly ToolsetName[],
): readonly ToolDefinition[] {
  return everyTool.filter((tool) => tool.toolset === 'core' || toolsets.includes(tool.toolset));
}
