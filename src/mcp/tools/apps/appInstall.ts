import { z } from 'zod';
import { parseApkArgument } from '../../../domain/apk/apkArgument.js';
import { argument, observeArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const appInstallTool = defineTool({
  name: 'app_install',
  toolset: 'apps',
  title: 'Install APK',
  description:
    'Installs (or updates, keeping data) an APK from the folder the user allowed (ANDROID_MCP_APK_DIR): {installed_package, version_name, version_code, replaced, foreground_package, after} + evidence. Next: app_open.',
  annotations: actor(true),
  answer:
    '`{installed_package, version_name, version_code, replaced, size_bytes, foreground_package, after}`; evidence `app-install`',
  arguments: {
    apk: argument(z.string().describe('file name inside that folder, e.g. app-debug.apk'), parseApkArgument),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.appInstall.install(context, input.apk, input.session_id, input.observe),
});
