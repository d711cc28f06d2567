import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const emulatorGetStatusTool = defineTool({
  name: 'emulator_get_status',
  toolset: 'core',
  title: 'Emulator status',
  description: 'Devices and Appium: {udid, android_version, model, appium_version, devices}.',
  annotations: OBSERVER,
  answer: '`{udid, android_version, model, screen, appium_version, appium_endpoint, devices}`',
  arguments: {},
  handle: (services, _input, context) => services.status.status(context),
});
