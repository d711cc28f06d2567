/**
 * Configuration from the environment, parsed once at start. A value that makes no sense
 * falls back to its default with a warning: the server must still start and answer
 * tools/list, so configuration never throws, with these exceptions: an unknown name in
 * ANDROID_MCP_TOOLSETS throws ToolsetsError, since serving another catalogue than the one asked
 * for would hide the mistake; and a value whose every reading would be a guess with consequences
 * (ANDROID_MCP_REMOTE, a retention bound, the idle lease's two names set apart) throws ConfigError.
 * The safety guards (serial, Appium URL) are applied later, per call, by src/domain/guards.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { parseToolsets, type ToolsetName } from './domain/toolsets.js';
import type { RetentionBound } from './domain/evidence/retention.js';
import { readModel, type ModelConfig } from './domain/modelEndpoint.js';
import { CONFIG_DEFAULTS, ConfigError, type ConfigLogLevel } from './config/defaults.js';
import { findSeconds, logLevel, nonEmpty, port, read, seconds, secondsOrOff, steps, type Warn } from './config/read.js';
import { readRetention, readTrace, type TraceConfig } from './config/retention.js';
import {
  readAppiumUrl,
  readRemote,
  readRemoteSwitch,
  REMOTE_DEFAULT_DEVICE,
  type RemoteConfig,
} from './config/remote.js';
import { PROTECTED_CAPABILITIES, readCapabilities } from './config/capabilities.js';

// The parts live in src/config/; importers keep importing this file.
export { CONFIG_DEFAULTS, ConfigError, LOG_LEVELS, type ConfigLogLevel } from './config/defaults.js';
export { TRACE_NAME, type TraceConfig } from './config/retention.js';
export { printableUrl, REMOTE_DEFAULT_DEVICE, type RemoteConfig } from './config/remote.js';
export { PROTECTED_CAPABILITIES } from './config/capabilities.js';

export interface HarnessConfig {
  /** ANDROID_UDID, else the default serial (used only when no device list can be read: fakes). */
  readonly udid: string;
  /** True when ANDROID_UDID was set: that device is the default. Unset: discovery (docs/reference/contract.md, "Many devices"). */
  readonly udidExplicit: boolean;
  readonly allowSerials: readonly string[];
  readonly appiumUrl: string;
  /** True when APPIUM_URL was set (and usable): use that server, never start a managed one. */
  readonly appiumUrlExplicit: boolean;
  readonly sessionIdleTimeoutMs: number;
  /** ANDROID_MCP_WARM_SESSION_TIMEOUT: how long the session of an action without session_id is kept for the next one (0: not kept). */
  readonly warmSessionTimeoutMs: number;
  readonly actionTimeoutMs: number;
  /** ANDROID_MCP_FIND_TIMEOUT: how long a selector's find waits for its element before UI_ELEMENT_NOT_FOUND. */
  readonly findTimeoutMs: number;
  readonly connectTimeoutMs: number;
  /** Absolute path. */
  readonly artifactsDir: string;
  /** How a person reaches that directory (the flow's report and summary), ending in a separator (see evidencePathPrefix). */
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
  /** ANDROID_MCP_TRACE and its bounds: the trace this process writes (docs/reference/contract.md, "Traces"); absent: none. */
  readonly trace?: TraceConfig;
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
 * How the flow command names the evidence directory `dir` (absolute) for a person, so they can open a
 * file: relative to the working directory when below it (`artifacts/`, `out/evidence/`); else
 * `~/…/` when below the home directory (no user name in it); else the absolute directory, which
 * the user configured themselves (ANDROID_MCP_ARTIFACTS_DIR). A working directory or home that is
 * the file-system root (MCP clients often start servers in `/`) says nothing and is skipped.
 * No answer uses this (an answer names only the file's id), nor any error message: no host path in answers.
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
 * Which variable holds the UI session's idle lease: ANDROID_MCP_SESSION_IDLE_TIMEOUT, or its
 * older name ANDROID_MCP_FLOW_IDLE_TIMEOUT when only that one is set. Both set to different
 * values refuses the start: either reading would silently drop a lease the user asked for.
 */
function sessionIdleVariable(env: NodeJS.ProcessEnv): string {
  const current = env.ANDROID_MCP_SESSION_IDLE_TIMEOUT?.trim() ?? '';
  const older = env.ANDROID_MCP_FLOW_IDLE_TIMEOUT?.trim() ?? '';
  if (current !== '' && older !== '' && current !== older) {
    throw new ConfigError(
      `ANDROID_MCP_SESSION_IDLE_TIMEOUT=${JSON.stringify(current.slice(0, 100))} and its older name ` +
        `ANDROID_MCP_FLOW_IDLE_TIMEOUT=${JSON.stringify(older.slice(0, 100))} disagree: ` +
        'set only ANDROID_MCP_SESSION_IDLE_TIMEOUT.',
    );
  }
  return current === '' && older !== '' ? 'ANDROID_MCP_FLOW_IDLE_TIMEOUT' : 'ANDROID_MCP_SESSION_IDLE_TIMEOUT';
}

/**
 * Throws ConfigError for what must not be guessed (ANDROID_MCP_REMOTE, the idle lease's two names set
 * apart), ToolsetsError for an unknown toolset; every other nonsense value falls back to its default
 * with a warning.
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
  const sessionIdle = read(env, sessionIdleVariable(env), seconds, CONFIG_DEFAULTS.sessionIdleTimeoutSeconds, warn);
  const warm = read(
    env,
    'ANDROID_MCP_WARM_SESSION_TIMEOUT',
    secondsOrOff,
    CONFIG_DEFAULTS.warmSessionTimeoutSeconds,
    warn,
  );
  const action = read(env, 'ANDROID_MCP_ACTION_TIMEOUT', seconds, CONFIG_DEFAULTS.actionTimeoutSeconds, warn);
  const find = read(env, 'ANDROID_MCP_FIND_TIMEOUT', findSeconds, CONFIG_DEFAULTS.findTimeoutSeconds, warn);
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
    findTimeoutMs: Math.round(find * 1000),
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
