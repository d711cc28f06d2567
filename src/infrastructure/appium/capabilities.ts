/**
 * The capabilities of a new session: the five the harness fixes (platform, automation name, udid,
 * noReset, newCommandTimeout), what the user adds through ANDROID_MCP_APPIUM_CAPS where it touches
 * none of them, and the UiAutomator2 server's settings the harness needs.
 */

const CONTRACT_CAPABILITY_KEYS = [
  'platformName',
  'appium:automationName',
  'appium:udid',
  'appium:noReset',
  'appium:newCommandTimeout',
] as const;

export interface CapabilityInputs {
  /** null: no appium:udid (remote mode without ANDROID_UDID, the endpoint picks). */
  readonly udid: string | null;
  /** How long Appium keeps the session without a command (SessionOptions.idleTimeoutMs). */
  readonly idleTimeoutMs: number;
  readonly extra?: Record<string, unknown>;
  readonly adbPort?: number;
  /** The UiAutomator2 server's `waitForIdleTimeout` (SessionOptions.waitForIdleTimeoutMs); a lower one from `extra` is kept. */
  readonly waitForIdleTimeoutMs?: number;
  readonly systemPort?: number;
}

const SETTINGS_CAP = 'appium:settings';
const IDLE_SETTING_CAP = 'appium:settings[waitForIdleTimeout]';

function plainObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * Puts `waitForIdleTimeout` into `appium:settings`, which Appium applies to the UiAutomator2
 * server right after the session is created (POST /appium/settings). A smaller value the user
 * gave (`appium:settings` or `appium:settings[waitForIdleTimeout]`, the single form winning as in
 * Appium's pullSettings) is kept: less waiting on animated screens is their call; more would let
 * a screen whose root never comes run past the action ceiling (idleWaitBudget.ts).
 */
function withIdleWait(caps: Record<string, unknown>, budgetMs: number): void {
  const settings = plainObject(caps[SETTINGS_CAP]) ?? {};
  const asked = caps[IDLE_SETTING_CAP] ?? settings.waitForIdleTimeout;
  const usable = typeof asked === 'number' && Number.isFinite(asked) && asked >= 0;
  delete caps[IDLE_SETTING_CAP];
  caps[SETTINGS_CAP] = { ...settings, waitForIdleTimeout: Math.floor(usable ? Math.min(asked, budgetMs) : budgetMs) };
}

/** The `waitForIdleTimeout` a built set of capabilities asks for (what the session log line reports). */
export function idleWaitOf(caps: Readonly<Record<string, unknown>>): unknown {
  return plainObject(caps[SETTINGS_CAP])?.waitForIdleTimeout;
}

/**
 * The five fixed capabilities and `appium:skipUnlock: true` unless the user set it; extras are added
 * only where they do not touch the five (or adbPort). newCommandTimeout is in whole seconds, rounded
 * up so Appium never waits less than asked.
 */
export function buildCapabilities(inputs: CapabilityInputs): Record<string, unknown> {
  const { udid, extra = {}, adbPort, systemPort } = inputs;
  const caps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extra)) {
    if ((CONTRACT_CAPABILITY_KEYS as readonly string[]).includes(key)) continue;
    if (key === 'appium:adbPort' && adbPort !== undefined) continue;
    if (key === 'appium:systemPort' && systemPort !== undefined) continue;
    caps[key] = value;
  }
  // The harness never unlocks the device (it answers DEVICE_LOCKED): without this the driver's
  // post-session setup dismisses a swipe keyguard. A user who wants Appium to unlock sets
  // appium:skipUnlock false (with unlockType/unlockKey) in ANDROID_MCP_APPIUM_CAPS.
  if (!('appium:skipUnlock' in caps)) caps['appium:skipUnlock'] = true;
  Object.assign(caps, {
    platformName: 'Android',
    'appium:automationName': 'UiAutomator2',
    'appium:noReset': true,
    // Appium reads 0 as "never time out": at least one second, so an orphan is always dropped.
    'appium:newCommandTimeout': Math.max(1, Math.ceil(inputs.idleTimeoutMs / 1000)),
  });
  if (udid !== null) caps['appium:udid'] = udid;
  if (adbPort !== undefined) caps['appium:adbPort'] = adbPort;
  if (inputs.waitForIdleTimeoutMs !== undefined) withIdleWait(caps, inputs.waitForIdleTimeoutMs);
  if (systemPort !== undefined) caps['appium:systemPort'] = systemPort;
  return caps;
}
