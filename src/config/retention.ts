/** Evidence and trace settings: how much evidence is kept (ANDROID_MCP_ARTIFACTS_MAX_*), and the trace (ANDROID_MCP_TRACE*). */
import { z } from 'zod';
import type { RetentionBound } from '../domain/evidence/retention.js';
import { CONFIG_DEFAULTS, ConfigError } from './defaults.js';
import { positiveMegabytes, read, steps, type Warn } from './read.js';

export interface TraceConfig {
  /** ANDROID_MCP_TRACE=off turns traces off. */
  readonly enabled: boolean;
  /** ANDROID_MCP_TRACE_KEEP: at most this many trace folders; the oldest are removed first. */
  readonly keep: number;
  /** ANDROID_MCP_TRACE_MAX_MB, in bytes: all traces together at most this much; one trace stops growing at it. */
  readonly maxBytes: number;
  /** ANDROID_MCP_TRACE_NAME: the folder name of this process's trace (the flow runner picks it, to name it in its report). */
  readonly name: string | null;
}

const BYTES_PER_MB = 1024 * 1024;
const MAX_FILES = 1_000_000;
const MAX_MB = 1_000_000;
// Plain decimal digits only: `0x10`, `1e3` or `2GB` are refused, not read as something else.
const fileCount = z
  .string()
  .regex(/^\d{1,7}$/)
  .transform(Number)
  .pipe(z.number().int().max(MAX_FILES));
const megabytes = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,6})?$/)
  .transform(Number)
  .pipe(z.number().max(MAX_MB));

/**
 * A retention limit, 0 for none. A value that is not one refuses the start (ConfigError): the
 * default in its place could remove evidence the user meant to keep.
 */
function readRetentionLimit(
  env: NodeJS.ProcessEnv,
  name: string,
  schema: z.ZodType<number>,
  fallback: number,
  accepted: string,
): number | null {
  const raw = env[name];
  const value = raw === undefined || raw.trim() === '' ? fallback : schema.safeParse(raw.trim()).data;
  if (value === undefined) {
    throw new ConfigError(
      `${name}=${JSON.stringify((raw ?? '').slice(0, 40))} is not usable: give ${accepted}, or 0 for no such bound (default ${fallback}). ` +
        'The server did not start: another bound than the one meant could remove evidence you want to keep.',
    );
  }
  return value === 0 ? null : value;
}

export function readRetention(env: NodeJS.ProcessEnv): RetentionBound {
  const maxFiles = readRetentionLimit(
    env,
    'ANDROID_MCP_ARTIFACTS_MAX_FILES',
    fileCount,
    CONFIG_DEFAULTS.artifactsMaxFiles,
    `a whole number of files up to ${MAX_FILES}`,
  );
  const maxMb = readRetentionLimit(
    env,
    'ANDROID_MCP_ARTIFACTS_MAX_MB',
    megabytes,
    CONFIG_DEFAULTS.artifactsMaxMb,
    `a number of megabytes (MiB, decimals allowed) up to ${MAX_MB}`,
  );
  return Object.freeze({ maxFiles, maxBytes: maxMb === null ? null : Math.max(1, Math.round(maxMb * BYTES_PER_MB)) });
}

/** A trace folder's name as the flow runner passes it: letters, digits, dots, dashes and underscores, no `..`. */
export const TRACE_NAME = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function readTrace(env: NodeJS.ProcessEnv, warn: Warn): TraceConfig {
  const raw = env.ANDROID_MCP_TRACE?.trim().toLowerCase() ?? '';
  if (raw !== '' && !['off', 'on', '0', '1', 'false', 'true'].includes(raw))
    warn(`ANDROID_MCP_TRACE=${JSON.stringify(raw.slice(0, 20))} is neither on nor off; traces stay on`);
  const name = env.ANDROID_MCP_TRACE_NAME?.trim() ?? '';
  if (name !== '' && !TRACE_NAME.test(name))
    warn('ANDROID_MCP_TRACE_NAME is not a plain folder name (letters, digits, . _ -); a name is picked instead');
  return Object.freeze({
    enabled: !['off', '0', 'false'].includes(raw),
    keep: read(env, 'ANDROID_MCP_TRACE_KEEP', steps, CONFIG_DEFAULTS.traceKeep, warn),
    maxBytes: Math.round(
      read(env, 'ANDROID_MCP_TRACE_MAX_MB', positiveMegabytes, CONFIG_DEFAULTS.traceMaxMb, warn) * 1024 * 1024,
    ),
    name: TRACE_NAME.test(name) ? name : null,
  });
}
