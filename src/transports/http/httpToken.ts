/**
 * The bearer token of `serve --http`: ANDROID_MCP_HTTP_TOKEN when set, else a token generated
 * at first start into `$XDG_CONFIG_HOME/android-mcp-harness/http-token` (else
 * `~/.config/android-mcp-harness/http-token`), readable by the user only. It lives in the
 * config directory, not the runtime one, because clients keep it in their own configuration:
 * it must survive a reboot.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Shorter tokens are refused: 16 characters is already far from guessable over loopback. */
export const MIN_TOKEN_LENGTH = 16;

export type TokenSource =
  { readonly kind: 'env' } | { readonly kind: 'file'; readonly path: string; readonly created: boolean };

export interface HttpToken {
  readonly token: string;
  readonly source: TokenSource;
}

/** A setup problem the user must fix; the CLI prints its message and exits 2. */
export class HttpTokenError extends Error {}

export function defaultTokenPath(env: NodeJS.ProcessEnv): string {
  const configHome =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(os.homedir(), '.config');
  return path.join(configHome, 'android-mcp-harness', 'http-token');
}

function validToken(token: string, where: string): string {
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new HttpTokenError(
      `${where} must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. \`openssl rand -hex 24\`).`,
    );
  }
  return token;
}

export function resolveHttpToken(env: NodeJS.ProcessEnv, file: string = defaultTokenPath(env)): HttpToken {
  const fromEnv = env.ANDROID_MCP_HTTP_TOKEN;
  if (fromEnv !== undefined && fromEnv !== '')
    return { token: validToken(fromEnv.trim(), 'ANDROID_MCP_HTTP_TOKEN'), source: { kind: 'env' } };
  const existing = readTokenFile(file);
  if (existing !== null) return { token: existing, source: { kind: 'file', path: file, created: false } };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  let fd: number;
  try {
    // 'wx': never overwrite; a second server starting at the same moment reads the first one's token.
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const raced = readTokenFile(file);
      if (raced !== null) return { token: raced, source: { kind: 'file', path: file, created: false } };
    }
    throw new HttpTokenError(
      `could not create the HTTP token file ${file}: ${(error as Error).message}. Set ANDROID_MCP_HTTP_TOKEN instead.`,
    );
  }
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return { token, source: { kind: 'file', path: file, created: true } };
}

/** The token in an existing file, or null when there is none; a file others could read is refused. */
function readTokenFile(file: string): string | null {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new HttpTokenError(`could not read the HTTP token file ${file}: ${(error as Error).message}.`);
  }
  if (!stat.isFile())
    throw new HttpTokenError(`the HTTP token file ${file} is not a regular file; remove it and start again.`);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new HttpTokenError(`the HTTP token file ${file} belongs to another user; remove it and start again.`);
  }
  if ((stat.mode & 0o077) !== 0) {
    throw new HttpTokenError(
      `the HTTP token file ${file} is readable by others: run \`chmod 600 ${file}\` (or remove it for a new token).`,
    );
  }
  return validToken(readFileSync(file, 'utf8').trim(), `the token in ${file}`);
}
