/**
 * Configuration from the environment, parsed once at start. A value that makes no sense
 * falls back to its default with a warning: the server must still start and answer
 * tools/list, so configuration never throws, with these exceptions: an unknown name in
 * ANDROID_MCP_TOOLSETS throws ToolsetsError, since serving another catalogue than the one asked
 * for would hide the mistake; and a value whose every reading would be a guess with consequences
 * (ANDROID_MCP_REMOTE, a retention bound) throws ConfigError. The safety guards (serial, Appium
 * URL) are applied later, per call, by src/domain/guards.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DRIVER_IDLE_MARGIN_MS } from './domain/driverIdleTimeout.js';
import { parseToolsets, type ToolsetName } from './domain/toolsets.js';
import { Secret } from './domain/secret.js';
import { SCHEMELESS_HOST_PORT } from './domain/guards.js';
import type { RetentionBound } from './domain/evidence/retention.js';
import { readModel, type ModelConfig } from './domain/modelEndpoint.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type ConfigLogLevel = (typeof LOG_LEVELS)[number];

/**
 * Capabilities the harness sets itself; ANDROID_MCP_APPIUM_CAPS may not override them.
 * `appium:newCommandTimeout` is derived per session from the lease it serves (driverIdleTimeout.ts):
 * a lower value would let Appium drop a session the harness still holds (a UI session voided with
 * APPIUM_UNAVAILABLE), a higher one or 0 (never) would let an orphaned session keep the device
 * long after the harness let go. Change ANDROID_MCP_FLOW_IDLE_TIMEOUT or ANDROID_MCP_ACTION_TIMEOUT
 * instead; the driver's timeout follows them.
 */
export const PROTECTED_CAPABILITIES: readonly string[] = Object.freeze([
  'platformName',
  'appium:automationName',
  'appium:udid',
  'appium:noReset',
  'appium:newCommandTimeout',
]);

/**
 * A start-up refusal: a value whose every reading would be a guess with consequences
 * (remote mode half switched on sends credentials somewhere, or drives a device through adb the
 * user said is not there). The server prints the message and exits 2 instead of starting.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

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

export interface HarnessConfig {
  /** ANDROID_UDID, else the default serial (used only when no device list can be read: fakes). */
  readonly udid: string;
  /** True when ANDROID_UDID was set: that device is the default. Unset: discovery (docs/contract.md, "Many devices"). */
  readonly udidExplicit: boolean;
  readonly allowSerials: readonly string[];
  readonly appiumUrl: string;
  /** True when APPIUM_URL was set (and usable): use that server, never start a managed one. */
  readonly appiumUrlExplicit: boolean;
  readonly sessionIdleTimeoutMs: number;
  /** ANDROID_MCP_WARM_SESSION_TIMEOUT: how long the session of an action without session_id is kept for the next one (0: not kept). */
  readonly warmSessionTimeoutMs: number;
  readonly actionTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Absolute path. */
  readonly artifactsDir: string;
  /** How `evidence.path` names that directory, ending in a separator (see evidencePathPrefix). */
  readonly artifactsPathPrefix: string;
  /** ANDROID_MCP_ARTIFACTS_MAX_FILES / ANDROID_MCP_ARTIFACTS_MAX_MB: the evidence retention bound (null: that bound is off). */
  readonly artifactsRetention: RetentionBound;
  readonly logLevel: ConfigLogLevel;
  /** Extra `appium:` capabilities, protected keys already removed. */
  readonly appiumExtraCapabilities: Readonly<Record<string, unknown>>;
  /** ANDROID_ADB_SERVER_PORT when valid: adb reads it from the environment, Appium gets appium:adbPort. */
  readonly adbServerPort: number | null;
  /** ANDROID_MCP_TOOLSETS (or --toolsets): the toolsets on, `core` always among them. */
  readonly toolsets: readonly ToolsetName[];
  /** ANDROID_MCP_APK_DIR, absolute: the one folder app_install reads APKs from; null: app_install refuses. */
  readonly apkDir: string | null;
  /** ANDROID_MCP_AGENT_MAX_STEPS / ANDROID_MCP_AGENT_TIMEOUT: the bounds of a goal task's agent loop. */
  readonly agentMaxSteps: number;
  readonly agentTimeoutMs: number;
  /** ANDROID_MCP_MODEL_PROVIDER and friends; null: no model, so a `{goal}` task is refused. */
  readonly model: ModelConfig | null;
  /** ANDROID_MCP_REMOTE=1: observation and launches through the WebDriver session; null: local adb, as before. */
  readonly remote: RemoteConfig | null;
  /** ANDROID_MCP_TRACE and its bounds: the trace this process writes (docs/contract.md, "Traces"); absent: none. */
  readonly trace?: TraceConfig;
}

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

export const CONFIG_DEFAULTS = Object.freeze({
  udid: 'emulator-5554',
  appiumUrl: 'http://127.0.0.1:4723',
  // A model thinks for tens of seconds between calls, minutes when it uses tools of its own;
  // a UI session holds the device meanwhile (docs/configuration.md, "Why a 300 s flow lease").
  sessionIdleTimeoutSeconds: 300,
  // The next action without session_id reuses the session instead of paying a session
  // start (~1.6 s, seconds on an emulator); another process waits at most this long for the device
  // (docs/configuration.md, "Why a 30 s warm session").
  warmSessionTimeoutSeconds: 30,
  actionTimeoutSeconds: 90,
  connectTimeoutSeconds: 120,
  // A goal task: enough tool calls for a few screens of a task, bounded in time so a
  // model that loops cannot hold the device for long (docs/configuration.md).
  agentMaxSteps: 30,
  agentTimeoutSeconds: 600,
  artifactsDir: 'artifacts',
  // A screenshot is 0.1 to 1 MB; either bound keeps hours of use (docs/configuration.md, "Evidence retention").
  artifactsMaxFiles: 500,
  artifactsMaxMb: 200,
  traceKeep: 50,
  traceMaxMb: 500,
  logLevel: 'info' as ConfigLogLevel,
});

const MAX_SECONDS = 24 * 60 * 60;
const seconds = z.coerce.number().finite().positive().max(MAX_SECONDS);
/** Like `seconds`, and 0 switches the feature off. */
const secondsOrOff = z.coerce.number().finite().min(0).max(MAX_SECONDS);
const positiveMegabytes = z.coerce.number().finite().positive().max(1_000_000);
const port = z.coerce.number().int().min(1).max(65535);
const steps = z.coerce.number().int().min(1).max(1000);
const logLevel = z.enum(LOG_LEVELS);
const nonEmpty = z.string().trim().min(1);
const jsonObject = z.record(z.string(), z.unknown());

type Warn = (msg: string) => void;

/** Reads `name` with `schema`; unset or blank means default silently, nonsense means default loudly. */
function read<T>(env: NodeJS.ProcessEnv, name: string, schema: z.ZodType<T>, fallback: T, warn: Warn): T {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const parsed = schema.safeParse(raw.trim());
  if (parsed.success) return parsed.data;
  warn(`${name}=${JSON.stringify(raw.slice(0, 100))} is not usable; using the default ${JSON.stringify(fallback)}.`);
  return fallback;
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

function readRetention(env: NodeJS.ProcessEnv): RetentionBound {
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

/** A URL as a warning may show it: userinfo and query values hidden (they may be credentials). */
export function printableUrl(raw: string): string {
  return raw
    .slice(0, 200)
    .replace(/\/\/[^/?#]*@/, '//[redacted]@')
    .replace(/([?&][^=&#]*)=[^&#]*/g, '$1=[redacted]');
}

interface AppiumUrl {
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
function readAppiumUrl(env: NodeJS.ProcessEnv, remote: boolean, warn: Warn): AppiumUrl {
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
function readRemoteSwitch(env: NodeJS.ProcessEnv): boolean {
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

function readRemote(
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

/** A W3C extension capability: `vendor:name` (bstack:options, sauce:options, LT:Options). */
const VENDOR_CAPABILITY = /^[A-Za-z][A-Za-z0-9_-]*:[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Outside remote mode only `appium:` keys; in remote mode also a device farm's own `vendor:options`
 * (a farm reads its credentials and device choice there: docs/many-devices.md).
 */
function readCapabilities(
  env: NodeJS.ProcessEnv,
  protectedKeys: readonly string[],
  remote: boolean,
  warn: Warn,
): Record<string, unknown> {
  const raw = env.ANDROID_MCP_APPIUM_CAPS?.trim();
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    warn('ANDROID_MCP_APPIUM_CAPS is not valid JSON; no extra capabilities are used.');
    return {};
  }
  const parsed = jsonObject.safeParse(json);
  if (!parsed.success || Array.isArray(json)) {
    warn('ANDROID_MCP_APPIUM_CAPS must be a JSON object; no extra capabilities are used.');
    return {};
  }
  const caps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (!key.startsWith('appium:') && !(remote && VENDOR_CAPABILITY.test(key))) {
      warn(
        remote
          ? `ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; only appium:-prefixed and vendor:name capabilities (bstack:options, sauce:options, LT:Options) may be added.`
          : `ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; only appium:-prefixed capabilities may be added (a device farm's vendor:options need ANDROID_MCP_REMOTE=1).`,
      );
    } else if (key === 'appium:newCommandTimeout') {
      warn(
        `ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; the harness derives it from ANDROID_MCP_FLOW_IDLE_TIMEOUT and ANDROID_MCP_ACTION_TIMEOUT (the longer plus ${DRIVER_IDLE_MARGIN_MS / 1000} s): set those instead.`,
      );
    } else if (protectedKeys.includes(key)) {
      warn(`ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; the harness fixes it.`);
    } else {
      caps[key] = value;
    }
  }
  return caps;
}

/** `dir` relative to `root` when it is `root` itself or below it, else null. */
function below(root: string, dir: string): string | null {
  const relative = path.relative(root, dir);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return null;
  return relative;
}

function isFileSystemRoot(dir: string): boolean {
  return path.parse(dir).root === dir;
}

/**
 * How `evidence.path` names the evidence directory `dir` (absolute), so the user can open the
 * file: relative to the working directory when below it (`artifacts/`, `out/evidence/`); else
 * `~/…/` when below the home directory (no user name in it); else the absolute directory, which
 * the user configured themselves (ANDROID_MCP_ARTIFACTS_DIR). A working directory or home that is
 * the file-system root (MCP clients often start servers in `/`) says nothing and is skipped.
 * Only evidence.path uses this: error messages never name the directory (no host paths in answers).
 */
export function evidencePathPrefix(dir: string, cwd: string, home: string | undefined): string {
  const inCwd = isFileSystemRoot(cwd) ? null : below(cwd, dir);
  if (inCwd !== null) return inCwd === '' ? './' : `${inCwd.split(path.sep).join('/')}/`;
  const inHome =
    home && path.isAbsolute(home) && !isFileSystemRoot(path.resolve(home)) ? below(path.resolve(home), dir) : null;
  if (inHome !== null) return inHome === '' ? '~/' : `~/${inHome.split(path.sep).join('/')}/`;
  return dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`;
}

/**
 * Throws ConfigError for what must not be guessed (ANDROID_MCP_REMOTE), ToolsetsError for an unknown
 * toolset; every other nonsense value falls back to its default with a warning.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  warn: Warn,
  cwd: string = process.cwd(),
  home: string = os.homedir(),
): HarnessConfig {
  const remote = readRemoteSwitch(env);
  const udidRead = read(env, 'ANDROID_UDID', nonEmpty, CONFIG_DEFAULTS.udid, warn);
  const udidExplicit = (env.ANDROID_UDID?.trim() ?? '') !== '' && udidRead === env.ANDROID_UDID?.trim();
  // Remote mode without ANDROID_UDID: the endpoint picks the device; no emulator-5554 is assumed.
  const udid = remote && !udidExplicit ? REMOTE_DEFAULT_DEVICE : udidRead;
  const allowSerials = (env.ANDROID_MCP_ALLOW_SERIALS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const appium = readAppiumUrl(env, remote, warn);
  const sessionIdle = read(
    env,
    'ANDROID_MCP_FLOW_IDLE_TIMEOUT',
    seconds,
    CONFIG_DEFAULTS.sessionIdleTimeoutSeconds,
    warn,
  );
  const warm = read(
    env,
    'ANDROID_MCP_WARM_SESSION_TIMEOUT',
    secondsOrOff,
    CONFIG_DEFAULTS.warmSessionTimeoutSeconds,
    warn,
  );
  const action = read(env, 'ANDROID_MCP_ACTION_TIMEOUT', seconds, CONFIG_DEFAULTS.actionTimeoutSeconds, warn);
  const connect = read(env, 'ANDROID_MCP_CONNECT_TIMEOUT', seconds, CONFIG_DEFAULTS.connectTimeoutSeconds, warn);
  const agentMaxSteps = read(env, 'ANDROID_MCP_AGENT_MAX_STEPS', steps, CONFIG_DEFAULTS.agentMaxSteps, warn);
  const agentTimeout = read(env, 'ANDROID_MCP_AGENT_TIMEOUT', seconds, CONFIG_DEFAULTS.agentTimeoutSeconds, warn);
  const artifacts = read(env, 'ANDROID_MCP_ARTIFACTS_DIR', nonEmpty, CONFIG_DEFAULTS.artifactsDir, warn);
  const artifactsDir = path.resolve(cwd, artifacts);
  const level = read(env, 'ANDROID_MCP_LOG_LEVEL', logLevel, CONFIG_DEFAULTS.logLevel, warn);
  const adbServerPort = read<number | null>(env, 'ANDROID_ADB_SERVER_PORT', port, null, warn);
  const protectedKeys = adbServerPort === null ? PROTECTED_CAPABILITIES : [...PROTECTED_CAPABILITIES, 'appium:adbPort'];
  const capabilities = readCapabilities(env, protectedKeys, remote, warn);
  const remoteConfig = readRemote(env, remote, appium, capabilities, udidExplicit, udid, warn);
  return Object.freeze({
    udid,
    udidExplicit,
    allowSerials: Object.freeze(allowSerials),
    appiumUrl: appium.url,
    appiumUrlExplicit: appium.explicit,
    sessionIdleTimeoutMs: Math.round(sessionIdle * 1000),
    warmSessionTimeoutMs: Math.round(warm * 1000),
    actionTimeoutMs: Math.round(action * 1000),
    connectTimeoutMs: Math.round(connect * 1000),
    artifactsDir,
    artifactsPathPrefix: evidencePathPrefix(artifactsDir, path.resolve(cwd), home),
    artifactsRetention: readRetention(env),
    logLevel: level,
    appiumExtraCapabilities: Object.freeze(capabilities),
    adbServerPort,
    toolsets: parseToolsets(env.ANDROID_MCP_TOOLSETS, 'ANDROID_MCP_TOOLSETS'),
    apkDir: env.ANDROID_MCP_APK_DIR?.trim() ? path.resolve(cwd, env.ANDROID_MCP_APK_DIR.trim()) : null,
    agentMaxSteps,
    agentTimeoutMs: Math.round(agentTimeout * 1000),
    model: readModel(env, warn),
    remote: remoteConfig,
    trace: readTrace(env, warn),
  });
}

/** A trace folder's name as the flow runner passes it: letters, digits, dots, dashes and underscores, no `..`. */
export const TRACE_NAME = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function readTrace(env: NodeJS.ProcessEnv, warn: Warn): TraceConfig {
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
