/**
 * What both adapters give their SDK client alike. Everything is explicit, because each SDK would
 * otherwise read its own environment (base URL, other credentials, log level) and log through
 * `console`, whose info and debug lines go to stdout, the MCP protocol.
 */
import type { Logger } from '../../domain/ports.js';
import { sdkLogger, type SdkLogger } from './sdkLogger.js';

export interface ModelAdapterOptions {
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly logger: Logger;
  /** The SDK's retries of 408/409/429/5xx and connection errors (default 2, with its backoff and `retry-after`). */
  readonly maxRetries?: number;
}

export interface CommonClientOptions {
  readonly apiKey: string;
  readonly baseURL: string;
  readonly maxRetries: number;
  readonly logLevel: 'warn';
  readonly logger: SdkLogger;
}

export function commonClientOptions(options: ModelAdapterOptions, source: string): CommonClientOptions {
  return {
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    maxRetries: options.maxRetries ?? 2,
    logLevel: 'warn',
    logger: sdkLogger(options.logger, source, options.apiKey),
  };
}
