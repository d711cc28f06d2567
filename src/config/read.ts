/** Reading one variable with a zod schema: unset or blank gives the default, nonsense the default and a warning. */
import { z } from 'zod';
import { LOG_LEVELS } from './defaults.js';

const MAX_SECONDS = 24 * 60 * 60;
export const seconds = z.coerce.number().finite().positive().max(MAX_SECONDS);
/** Like `seconds`, and 0 switches the feature off. */
export const secondsOrOff = z.coerce.number().finite().min(0).max(MAX_SECONDS);
/**
 * A find's wait: 0 (one look) up to 60 s, well inside the default 90 s action ceiling it runs under;
 * a longer wait would only turn a missing element into OPERATION_TIMEOUT.
 */
export const findSeconds = z.coerce.number().finite().min(0).max(60);
export const positiveMegabytes = z.coerce.number().finite().positive().max(1_000_000);
export const port = z.coerce.number().int().min(1).max(65535);
export const steps = z.coerce.number().int().min(1).max(1000);
export const logLevel = z.enum(LOG_LEVELS);
export const nonEmpty = z.string().trim().min(1);

export type Warn = (msg: string) => void;

/** Reads `name` with `schema`; unset or blank means default silently, nonsense means default loudly. */
export function read<T>(env: NodeJS.ProcessEnv, name: string, schema: z.ZodType<T>, fallback: T, warn: Warn): T {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const parsed = schema.safeParse(raw.trim());
  if (parsed.success) return parsed.data;
  warn(`${name}=${JSON.stringify(raw.slice(0, 100))} is not usable; using the default ${JSON.stringify(fallback)}.`);
  return fallback;
}
