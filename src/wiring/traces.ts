/**
 * The run's traces: written under the evidence directory when tracing is on (the default), none
 * otherwise; remote mode's scrub keeps its credentials out of every line.
 */
import type { HarnessConfig } from '../config.js';
import { Traces } from '../application/trace/Traces.js';
import type { Clock, Logger } from '../domain/ports.js';
import { FileTraceStore } from '../infrastructure/trace/FileTraceStore.js';

export function createTraces(
  config: HarnessConfig,
  clock: Clock,
  logger: Logger,
  scrub: ((text: string) => string) | null,
  serverVersion: string,
): Traces {
  const traceConfig = config.trace;
  return new Traces({
    store:
      traceConfig?.enabled === true
        ? new FileTraceStore({
            artifactsDir: config.artifactsDir,
            keep: traceConfig.keep,
            maxBytes: traceConfig.maxBytes,
            clock,
            logger,
            ...(scrub ? { scrub } : {}),
          })
        : null,
    clock,
    defaultDevice: config.udidExplicit ? config.udid : null,
    sessionName: traceConfig?.name ?? null,
    serverVersion,
  });
}
