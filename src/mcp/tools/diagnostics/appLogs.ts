import { z } from 'zod';
import { LOG_LINES_DEFAULT, LOG_LINES_MAX } from '../../../application/services/DiagnosticsService.js';
import { MIN_LEVELS, parseBoundedNumber, parseMinLevel } from '../../../domain/toolsetArguments.js';
import { argument, packageArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { OBSERVER } from '../../ToolDefinition.js';

export const appLogsTool = defineTool({
  name: 'app_logs',
  toolset: 'diagnostics',
  title: 'App logs',
  description: `Last logcat lines of a running app's processes (lines default ${LOG_LINES_DEFAULT}, max ${LOG_LINES_MAX}; min_level V-F): {running, pids, lines: [{time, pid, tid, level, tag, message}]}. The app's own text, unredacted.`,
  annotations: OBSERVER,
  answer:
    '`{package, running, pids, min_level, lines: [{time, pid, tid, level, tag, message}], count}` (+ `omitted_for_size`); not running: `running: false` and a `note`',
  arguments: {
    package_name: packageArgument(z.string().describe('e.g. com.example.app; it must be running')),
    lines: argument(
      z.number().int().min(1).max(LOG_LINES_MAX).optional().describe(`The newest n, default ${LOG_LINES_DEFAULT}`),
      (raw) => parseBoundedNumber(raw, 'lines', 1, LOG_LINES_MAX, LOG_LINES_DEFAULT, true),
    ),
    min_level: argument(
      z.enum(MIN_LEVELS).optional().describe('Lowest priority shown (Verbose to Fatal), default V'),
      (raw) => parseMinLevel(raw, 'V'),
    ),
  },
  handle: (services, input, context) =>
    services.diagnostics.logs(context, { pkg: input.package_name, lines: input.lines, minLevel: input.min_level }),
});
