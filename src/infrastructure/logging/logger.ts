import { pino, type Logger as PinoLogger } from 'pino';
import type { Logger } from '../../domain/ports.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * JSON lines on stderr. stdout belongs to the MCP transport, so the default destination
 * is file descriptor 2, written synchronously so the last lines survive a crash.
 */
export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Logger {
  const level: LogLevel = isLogLevel(options.level) ? options.level : 'info';
  const destination = options.destination ?? pino.destination({ fd: 2, sync: true });
  const base = pino({ level, base: { name: 'android-mcp-harness' } }, destination);
  return wrap(base);
}

function wrap(base: PinoLogger): Logger {
  return {
    debug: (message, fields) => base.debug(fields ?? {}, message),
    info: (message, fields) => base.info(fields ?? {}, message),
    warn: (message, fields) => base.warn(fields ?? {}, message),
    error: (message, fields) => base.error(fields ?? {}, message),
  };
}
