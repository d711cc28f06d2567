/** What every part of the configuration shares: the log levels, the defaults and the start-up refusal. */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type ConfigLogLevel = (typeof LOG_LEVELS)[number];

/**
 * A start-up refusal: a value whose every reading would be a guess with consequences
 * (remote mode half switched on sends credentials somewhere, or drives a device through adb the
 * user said is not there). The server prints the message and exits 2 instead of starting.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const CONFIG_DEFAULTS = Object.freeze({
  udid: 'emulator-5554',
  appiumUrl: 'http://127.0.0.1:4723',
  // A model thinks for tens of seconds between calls, minutes when it uses tools of its own;
  // a UI session holds the device meanwhile (docs/reference/configuration.md, "Why a 300 s session lease").
  sessionIdleTimeoutSeconds: 300,
  // The next action without session_id reuses the session instead of paying a session
  // start (~1.6 s, seconds on an emulator); another process waits at most this long for the device
  // (docs/reference/configuration.md, "Why a 30 s warm session").
  warmSessionTimeoutSeconds: 30,
  actionTimeoutSeconds: 90,
  // A selector's element may come a moment after the screen changed (an animation, a list filling):
  // each find waits this long before UI_ELEMENT_NOT_FOUND (docs/reference/contract.md, "Sessions, ceilings, no orphans").
  findTimeoutSeconds: 10,
  connectTimeoutSeconds: 120,
  // A goal task: enough tool calls for a few screens of a task, bounded in time so a
  // model that loops cannot hold the device for long (docs/reference/configuration.md).
  agentMaxSteps: 30,
  agentTimeoutSeconds: 600,
  artifactsDir: 'artifacts',
  // A screenshot is 0.1 to 1 MB; either bound keeps hours of use (docs/reference/configuration.md, "Evidence retention").
  artifactsMaxFiles: 500,
  artifactsMaxMb: 200,
  traceKeep: 50,
  traceMaxMb: 500,
  logLevel: 'info' as ConfigLogLevel,
});
