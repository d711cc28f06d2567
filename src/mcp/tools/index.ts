import type { HarnessServices } from '../../application/HarnessServices.js';
import type { ToolDefinition } from '../ToolDefinition.js';
import { appListInstalledTool } from './appListInstalled.js';
import { appOpenTool } from './appOpen.js';
import { deviceBackTool } from './deviceBack.js';
import { emulatorGetStatusTool } from './emulatorGetStatus.js';
import { screenCaptureTool } from './screenCapture.js';
import { settingsOpenAppsTool } from './settingsOpenApps.js';
import { uiGetTreeTool } from './uiGetTree.js';
import { uiScrollTool } from './uiScroll.js';
import { uiSessionCloseTool } from './uiSessionClose.js';
import { uiSessionOpenTool } from './uiSessionOpen.js';
import { uiTapTool } from './uiTap.js';
import { uiTypeTextTool } from './uiTypeText.js';

/** CONTRACT §1: exactly these twelve, in this order. */
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

export function createTools(services: HarnessServices): readonly ToolDefinition[] {
  return [
    emulatorGetStatusTool(services),
    uiGetTreeTool(services),
    screenCaptureTool(services),
    appListInstalledTool(services),
    appOpenTool(services),
    uiSessionOpenTool(services),
    uiSessionCloseTool(services),
    uiTapTool(services),
    uiTypeTextTool(services),
    uiScrollTool(services),
    deviceBackTool(services),
    settingsOpenAppsTool(services),
  ];
}
