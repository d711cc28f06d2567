/**
 * Remote mode (ANDROID_MCP_REMOTE=1) and APPIUM_URL: the endpoint, its credentials and the values
 * the logs must never show.
 */
import { Secret } from '../domain/secret.js';
import { SCHEMELESS_HOST_PORT } from '../domain/guards.js';
import { CONFIG_DEFAULTS, ConfigError } from './defaults.js';
import type { Warn } from './read.js';

/** Remote mode (ANDROID_MCP_REMOTE=1): the device is behind a WebDriver endpoint, not on local adb. */
export interface RemoteConfig {
  /** The Authorization header sent with every request to APPIUM_URL, or null (an endpoint that needs none). */
  readonly authorization: Secret | null;
  /** Where it came from, for doctor and warnings: never the value. */
  readonly authorizationSource: 'APPIUM_URL userinfo' | 'ANDROID_MCP_REMOTE_AUTHORIZATION' | null;
  /** ANDROID_UDID when set: sent as appium:udid. Null: the endpoint picks the device (appium:udid left out). */
  readonly udid: string | null;
  /**
   * Every value the logs must never show (the key, the user:key pair, the header and its token, a
   * capability value under a key such as accessKey): the redacting logger replaces them.
   */
  readonly secrets: readonly Secret[];
}

/** The name remote mode gives the one device when ANDROID_UDID is unset (its lock key, its `udid` in answers). */
export const REMOTE_DEFAULT_DEVICE = 'remote-device';

/** A URL as a warning may show it: userinfo and query values hidden (they may be credentials). */
export function printableUrl(raw: string): string {
  return raw
    .slice(0, 200)
    .replace(/\/\/[^/?#]*@/, '//[redacted]@')
    .replace(/([?&][^=&#]*)=[^&#]*/g, '$1=[redacted]');
}

export interface AppiumUrl {
  readonly url: string;
  readonly explicit: boolean;
  /** `user:key` from the URL's userinfo, decoded; null when it had none. */
  readonly userinfo: { readonly user: string; readonly key: string } | null;
}

/**
 * APPIUM_URL without its userinfo: credentials never stay in a URL the harness prints, logs or puts
 * in an answer. In remote mode they become the Authorization header (readRemote); elsewhere they
 * are dropped with a warning, since a loopback Appium needs none.
 */
export function readAppiumUrl(env: NodeJS.ProcessEnv, remote: boolean, warn: Warn): AppiumUrl {
  const raw = env.APPIUM_URL?.trim();
  if (!raw) return { url: CONFIG_DEFAULTS.appiumUrl, explicit: false, userinfo: null };
  // `localhost:4723`: kept as written, so the guard and the doctor name it and say to add http://.
  if (SCHEMELESS_HOST_PORT.test(raw)) return { url: raw, explicit: true, userinfo: null };
  if (!URL.canParse(raw)) {
    warn(
      `APPIUM_URL=${JSON.stringify(printableUrl(raw))} is not a URL; using the default ${CONFIG_DEFAULTS.appiumUrl}.`,
    );
    return { url: CONFIG_DEFAULTS.appiumUrl, explicit: false, userinfo: null };
  }
  const parsed = new URL(raw);
  // A trailing slash would give `//status`; the guard still judges scheme and host per call.
  if (parsed.username === '' && parsed.password === '')
    return { url: raw.replace(/\/+$/, ''), explicit: true, userinfo: null };
  let userinfo: AppiumUrl['userinfo'] = null;
  if (remote) userinfo = { user: safeDecode(parsed.username), key: safeDecode(parsed.password) };
  else
    warn(
      'APPIUM_URL carries credentials (user:key@); outside remote mode they are dropped (a local Appium needs none). Set ANDROID_MCP_REMOTE=1 for a Grid or device farm that needs them.',
    );
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString().replace(/\/+$/, ''), explicit: true, userinfo };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** ANDROID_MCP_REMOTE: 1 or true switch remote mode on; unset, empty, 0 or false leave it off; anything else refuses to start. */
export function readRemoteSwitch(env: NodeJS.ProcessEnv): boolean {
  const raw = env.ANDROID_MCP_REMOTE?.trim() ?? '';
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(
    `ANDROID_MCP_REMOTE=${JSON.stringify(raw.slice(0, 20))} is not understood: set it to 1 (or true) to drive a device behind a Grid or device farm without local adb, or unset it (0, false) for the device on this machine's adb. The server did not start.`,
  );
}

/** Capability keys whose string values are credentials (BrowserStack's accessKey, a token, a password). */
const SECRET_KEY = /(key|token|password|secret|passwd)$/i;

function secretValues(value: unknown, key: string, into: Secret[]): void {
  if (typeof value === 'string' && SECRET_KEY.test(key) && value.length >= 4) into.push(new Secret(value));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) secretValues(v, k, into);
  }
}

export function readRemote(
  env: NodeJS.ProcessEnv,
  remote: boolean,
  appium: AppiumUrl,
  capabilities: Record<string, unknown>,
  udidExplicit: boolean,
  udid: string,
  warn: Warn,
): RemoteConfig | null {
  const header = env.ANDROID_MCP_REMOTE_AUTHORIZATION?.trim() ?? '';
  if (!remote) {
    if (header !== '')
      warn(
        'ANDROID_MCP_REMOTE_AUTHORIZATION is ignored outside remote mode (ANDROID_MCP_REMOTE=1); it is never sent to a local Appium.',
      );
    return null;
  }
  if (!appium.explicit) {
    throw new ConfigError(
      'ANDROID_MCP_REMOTE=1 needs APPIUM_URL: the Grid hub or device farm endpoint (https://…, or http:// on loopback). The harness does not start an Appium of its own in remote mode (it would need local adb). The server did not start.',
    );
  }
  const secrets: Secret[] = [];
  let authorization: Secret | null = null;
  let authorizationSource: RemoteConfig['authorizationSource'] = null;
  if (appium.userinfo) {
    const pair = `${appium.userinfo.user}:${appium.userinfo.key}`;
    const basic = Buffer.from(pair, 'utf8').toString('base64');
    authorization = new Secret(`Basic ${basic}`);
    authorizationSource = 'APPIUM_URL userinfo';
    secrets.push(new Secret(basic), new Secret(pair));
    if (appium.userinfo.key.length > 0) secrets.push(new Secret(appium.userinfo.key));
  }
  if (header !== '') {
    if (authorization)
      warn(
        'Both APPIUM_URL userinfo and ANDROID_MCP_REMOTE_AUTHORIZATION are set; the header is sent, the userinfo is not.',
      );
    authorization = new Secret(header);
    authorizationSource = 'ANDROID_MCP_REMOTE_AUTHORIZATION';
    const token = header.includes(' ') ? header.slice(header.indexOf(' ') + 1).trim() : '';
    if (token.length >= 4) secrets.push(new Secret(token));
  }
  if (authorization) secrets.push(authorization);
  for (const [key, value] of Object.entries(capabilities)) secretValues(value, key, secrets);
  return Object.freeze({
    authorization,
    authorizationSource,
    udid: udidExplicit ? udid : null,
    secrets: Object.freeze(secrets),
  });
}
