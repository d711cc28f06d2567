import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { CRASHES_MAX } from '../../../application/services/DiagnosticsService.js';
import { parseSince } from '../../../domain/toolsetArguments.js';
import { parsePackageName } from '../../../domain/validation.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function appCrashesTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_crashes',
    toolset: 'diagnostics',
    title: 'App crashes',
    description: `Crashes and ANRs the device still holds, newest ${CRASHES_MAX}, optionally of one package and since an ISO time: {crashes: [{kind, time, process, pid, exception|reason, stack}]}.`,
    inputSchema: z.object({
      package_name: z.string().optional(),
      since: z.string().optional().describe('e.g. 2026-12-01T22:40:00Z'),
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      const pkg =
        args.package_name === undefined || args.package_name === null ? null : parsePackageName(args.package_name);
      const sinceMs = parseSince(args.since);
      return services.diagnostics.crashes(context, { pkg, sinceMs });
    },
  };
}
