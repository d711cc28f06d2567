import { z } from 'zod';
import { CRASHES_MAX } from '../../../application/services/DiagnosticsService.js';
import { parseSince } from '../../../domain/toolsetArguments.js';
import { argument, optionalPackageArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const appCrashesTool = defineTool({
  name: 'app_crashes',
  toolset: 'diagnostics',
  title: 'App crashes',
  description: `Crashes and ANRs the device still holds, newest ${CRASHES_MAX}, optionally of one package and since an ISO time: {crashes: [{kind, time, process, pid, exception|reason, stack}]}.`,
  annotations: OBSERVER,
  answer:
    '`{package?, since, crashes: [{kind, time, process, pid, exception | reason, stack, stack_truncated?}], count}` (+ `older_not_shown`)',
  arguments: {
    package_name: optionalPackageArgument(z.string().optional().describe("Only this app's; default: every app")),
    since: argument(
      z.string().optional().describe('Only later ones: ISO time with zone, e.g. 2026-12-01T22:40:00Z'),
      parseSince,
    ),
  },
  handle: (services, input, context) =>
    services.diagnostics.crashes(context, { pkg: input.package_name, sinceMs: input.since }),
});
