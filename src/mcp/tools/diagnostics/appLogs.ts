import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { LOG_LINES_DEFAULT, LOG_LINES_MAX } from '../../../application/services/DiagnosticsService.js';
import { MIN_LEVELS, parseBoundedNumber, parseMinLevel } from '../../../domain/toolsetArguments.js';
import { parsePackageName } from '../../../domain/validation.js';
import { OBSERVER, type ToolDefinition } from '../../ToolDefinition.js';

export function appLogsTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_logs',
    toolset: 'diagnostics',
    title: 'App logs',
    description: `Last logcat lines of a running app's processes (lines default ${LOG_LINES_DEFAULT}, max ${LOG_LINES_MAX}; min_level V-F): {running, pids, lines: [{time, pid, tid, level, tag, message}]}. The app's own text, unredacted.`,
    inputSchema: z.object({
      package_name: z.string(),
      lines: z.number().int().min(1).max(LOG_LINES_MAX).optional(),
      min_level: z.enum(MIN_LEVELS).optional(),
    }),
    annotations: OBSERVER,
    execute: (args, context) => {
      const pkg = parsePackageName(args.package_name);
      const lines = parseBoundedNumber(args.lines, 'lines', 1, LOG_LINES_MAX, LOG_LINES_DEFAULT, true);
      const minLevel = parseMinLevel(args.min_level, 'V');
      return services.diagnostics.logs(context, { pkg, lines, minLevel });
    },
  };
}
