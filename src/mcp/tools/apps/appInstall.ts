import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseApkArgument } from '../../../domain/apk/apkArgument.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function appInstallTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_install',
    toolset: 'apps',
    title: 'Install APK',
    description:
      'Installs (or updates, keeping data) an APK from the folder the user allowed (ANDROID_MCP_APK_DIR): {installed_package, version_name, version_code, replaced, foreground_package, after} + evidence. Next: app_open.',
    inputSchema: z.object({
      apk: z.string().describe('file name inside that folder, e.g. app-debug.apk'),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(true),
    execute: (args, context) =>
      services.appInstall.install(context, parseApkArgument(args.apk), optionalSessionId(args), observeFlag(args)),
  };
}
