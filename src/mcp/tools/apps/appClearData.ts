import { z } from 'zod';
import { observeArgument, packageArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import type { ToolAnnotations } from '../../ToolDefinition.js';

/** The one destructive tool: the app's data is gone for good. */
const DESTRUCTIVE: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
});

export const appClearDataTool = defineTool({
  name: 'app_clear_data',
  toolset: 'apps',
  title: 'Clear app data',
  description:
    'DESTRUCTIVE: erases all data of an installed app (accounts, files, settings; cannot be undone) and stops it: {cleared_package, foreground_package, after} + evidence.',
  annotations: DESTRUCTIVE,
  answer: '`{cleared_package, foreground_package, after}`; evidence `app-clear-data`',
  arguments: {
    package_name: packageArgument(z.string().describe('e.g. com.example.app')),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.appReset.clearData(context, input.package_name, input.session_id, input.observe),
});
