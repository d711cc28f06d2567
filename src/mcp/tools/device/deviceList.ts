import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function deviceListTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'device_list',
    toolset: 'device',
    title: 'List devices',
    description:
      'Every device adb sees: {devices: [{serial, state, allowed, configured, android_version, model, held_by}], count}. Only the configured one is driven.',
    inputSchema: z.object({}),
    annotations: OBSERVER,
    execute: (_args, context) => services.devices.list(context),
  };
}
