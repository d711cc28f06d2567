import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function emulatorGetStatusTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'emulator_get_status',
    toolset: 'core',
    title: 'Emulator status',
    description: 'Devices and Appium: {udid, android_version, model, appium_version, devices}.',
    inputSchema: z.object({}),
    annotations: OBSERVER,
    execute: (_args, context) => services.status.status(context),
  };
}
