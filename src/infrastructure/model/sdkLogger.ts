/**
 * The SDKs log through `console` by default, and Node's console writes info and debug lines to
 * stdout, which is the MCP protocol. So each client gets this bridge: warnings and errors to the
 * harness's logger (stderr), the message only (the SDKs may pass request details beside it), info
 * and debug dropped.
 */
import type { Logger } from '../../domain/ports.js';
import { withoutSecrets } from './modelErrors.js';

export interface SdkLogger {
  error: (message: string, ...rest: unknown[]) => void;
  warn: (message: string, ...rest: unknown[]) => void;
  info: (message: string, ...rest: unknown[]) => void;
  debug: (message: string, ...rest: unknown[]) => void;
}

export function sdkLogger(logger: Logger, source: string, apiKey: string): SdkLogger {
  return {
    error: (message) => logger.error(`${source}: ${withoutSecrets(String(message), apiKey)}`),
    warn: (message) => logger.warn(`${source}: ${withoutSecrets(String(message), apiKey)}`),
    info: () => undefined,
    debug: () => undefined,
  };
}
