import { belongsTo, parseAnrEvents, parseCrashBuffer, type CrashReport } from '../../domain/diagnostics/crashes.js';
import { atLeast, parseThreadtime, type LogLevel, type LogLine } from '../../domain/diagnostics/logLine.js';
import { cutMessage, newestWithin } from '../../domain/diagnostics/logBudget.js';
import { HarnessError } from '../../domain/errors.js';
import type { DeviceGateway } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import type { DeviceRouter } from '../devices/DeviceRouter.js';
import type { OperationContext, Outcome } from '../OperationRunner.js';

export const LOG_LINES_DEFAULT = 100;
export const LOG_LINES_MAX = 500;
/** The most lines read per process when a level filters them on the host (logcat's -t counts before any filter). */
export const LOG_FILTER_READ_MAX = 2_000;
/** A package rarely runs more than a main process and a service or two; each is one logcat read. */
export const PROCESSES_MAX = 4;
/** The most recent crashes and ANRs answered. */
export const CRASHES_MAX = 10;

export interface LogRequest {
  readonly pkg: PackageName;
  readonly lines: number;
  readonly minLevel: LogLevel;
}

export interface CrashRequest {
  readonly pkg: PackageName | null;
  readonly sinceMs: number | null;
}

/**
 * app_logs and app_crashes (toolset `diagnostics`): read-only logcat through the closed
 * list, no Appium session. The package is matched to processes on the host (`ps` output), so
 * only numbers reach the device's shell. What the app wrote is returned as it wrote it: reading
 * it is the tool's purpose; none of it goes to the harness's own log.
 */
export class DiagnosticsService {
  constructor(private readonly router: DeviceRouter) {}

  async logs(context: OperationContext, request: LogRequest): Promise<Outcome> {
    const { access } = await this.router.bindingFor({});
    return access.exclusive(context, 'adb', async (device) => {
      const { pkg, lines, minLevel } = request;
      if (!(await device.listPackages()).includes(pkg)) {
        throw new HarnessError(
          'APP_NOT_FOUND',
          `${pkg} is not installed on the device. Call app_list_installed to see the packages that are.`,
        );
      }
      const pids = await processIdsOf(device, pkg);
      if (pids.length === 0) {
        return {
          data: {
            package: pkg,
            running: false,
            pids: [],
            lines: [],
            count: 0,
            note: `${pkg} has no running process, and logcat reads an app's lines by process id, so none can be told apart. Open it with app_open and call app_logs again; if it crashed, app_crashes shows the crash.`,
          },
        };
      }
      const read = minLevel === 'V' ? lines : Math.min(LOG_FILTER_READ_MAX, lines * 20);
      const all: LogLine[] = [];
      for (const pid of pids) {
        for (const line of parseThreadtime(await device.readAppLog(pid, read))) {
          if (line.pid === pid && atLeast(line.level, minLevel)) all.push(line);
        }
      }
      // Stable: lines of one process keep logcat's order when their times are equal.
      all.sort((a, b) => a.epochMs - b.epochMs);
      const compact = all.slice(-lines).map((l) => ({
        time: l.time,
        pid: l.pid,
        tid: l.tid,
        level: l.level,
        tag: l.tag,
        message: cutMessage(l.message),
      }));
      const { kept, dropped } = newestWithin(compact);
      return {
        data: {
          package: pkg,
          running: true,
          pids,
          min_level: minLevel,
          lines: kept,
          count: kept.length,
          ...(dropped > 0 ? { omitted_for_size: dropped } : {}),
        },
      };
    });
  }

  async crashes(context: OperationContext, request: CrashRequest): Promise<Outcome> {
    const { access } = await this.router.bindingFor({});
    return access.exclusive(context, 'adb', async (device) => {
      const { pkg, sinceMs } = request;
      const reports = [
        ...parseCrashBuffer(parseThreadtime(await device.readCrashLog())),
        ...parseAnrEvents(parseThreadtime(await device.readAnrEvents())),
      ]
        .filter((r) => (pkg === null || belongsTo(r, pkg)) && (sinceMs === null || r.epochMs >= sinceMs))
        .sort((a, b) => a.epochMs - b.epochMs);
      const { kept } = newestWithin(reports.slice(-CRASHES_MAX).map(compactReport));
      return {
        data: {
          ...(pkg === null ? {} : { package: pkg }),
          since: sinceMs === null ? null : new Date(sinceMs).toISOString(),
          crashes: kept,
          count: kept.length,
          // Older ones exist: narrow with `since` or a package to see them.
          ...(reports.length > kept.length ? { older_not_shown: reports.length - kept.length } : {}),
        },
      };
    });
  }
}

/** The package's processes (`pkg` itself first, then `pkg:name` ones), at most PROCESSES_MAX. */
async function processIdsOf(device: DeviceGateway, pkg: PackageName): Promise<number[]> {
  const mine = (await device.listProcesses()).filter((p) => p.name === pkg || p.name.startsWith(`${pkg}:`));
  mine.sort((a, b) => Number(b.name === pkg) - Number(a.name === pkg) || a.pid - b.pid);
  return mine.slice(0, PROCESSES_MAX).map((p) => p.pid);
}

function compactReport(r: CrashReport): Record<string, unknown> {
  return {
    kind: r.kind,
    time: r.time,
    process: r.process,
    pid: r.pid,
    ...(r.exception === null ? {} : { exception: r.exception }),
    ...(r.reason === null ? {} : { reason: r.reason }),
    ...(r.kind === 'anr' ? {} : { stack: r.stack }),
    ...(r.stackTruncated ? { stack_truncated: true } : {}),
  };
}
