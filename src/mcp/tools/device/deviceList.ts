import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const deviceListTool = defineTool({
  name: 'device_list',
  toolset: 'device',
  title: 'List devices',
  description:
    'Every device adb sees: {devices: [{serial, state, allowed, configured, android_version, model, held_by}], count}. Only the configured one is driven.',
  annotations: OBSERVER,
  answer: '`{devices: [{serial, state, allowed, configured, avd_name, android_version, model, held_by}], count}`',
  arguments: {},
  handle: (services, _input, context) => services.devices.list(context),
});
