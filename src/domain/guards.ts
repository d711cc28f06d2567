/**
 * The two safety guards, the device guard (checkSerial) and the endpoint guard (checkAppiumUrl).
 * Both run before anything is sent anywhere: the harness only drives emulators (or serials the
 * user opted into) and only talks to an Appium on this machine (or, in remote mode, over https).
 * Where each runs is written in docs/reference/contract.md, "Order of checks in every call".
 */
import { HarnessError } from './errors.js';

const EMULATOR_SERIAL = /^emulator-[0-9]+$/;
/** `host:port` (optionally a path) with no `scheme://`: what a user writes for `http://host:port`. */
export const SCHEMELESS_HOST_PORT = /^[A-Za-z0-9.-]+:[0-9]+(?:\/.*)?$/;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Throws EMULATOR_UNAVAILABLE unless `serial` is an emulator serial or explicitly allowed. */
export function checkSerial(serial: string, allowList: readonly string[]): void {
  if (EMULATOR_SERIAL.test(serial)) return;
  if (serial.length > 0 && allowList.includes(serial)) return;
  throw new HarnessError(
    'EMULATOR_UNAVAILABLE',
    `The serial '${printable(serial)}' is not an emulator serial (emulator-<port>), so the harness refuses to use it. ` +
      'Set ANDROID_UDID to an emulator serial from `adb devices`, or list this serial in ANDROID_MCP_ALLOW_SERIALS (comma-separated) to opt in consciously.',
  );
}

/** How far a call reaches: adb only (an observer), Appium too, or the screen (an action, even one through adb). */
export type Reach = 'adb' | 'appium' | 'act';

/** What the two guards look at: the configuration, never a device. */
export interface GuardPolicy {
  readonly allowSerials: readonly string[];
  readonly appiumUrl: string;
  /** Remote mode: https endpoints pass the endpoint guard, and observers read through a session too. */
  readonly remote: boolean;
}

/**
 * Whether a call that reaches `reach` needs the endpoint guard: every call that talks to Appium or
 * changes the screen (a configuration naming an unsafe endpoint is unsafe as a whole, so nothing
 * mutating runs under it), and in remote mode every call, since observing reads through a session.
 */
export function needsEndpointGuard(reach: Reach, remote: boolean): boolean {
  return remote || reach !== 'adb';
}

/**
 * The guards a call on `serial` needs, in the contract's order ("Order of checks in every call"):
 * the device guard, then the endpoint guard when the call needs it. Nothing is sent before they pass.
 */
export function guardCall(serial: string, reach: Reach, policy: GuardPolicy): void {
  checkSerial(serial, policy.allowSerials);
  if (needsEndpointGuard(reach, policy.remote)) checkAppiumUrl(policy.appiumUrl, policy.remote);
}

/** checkSerial as a question: whether the device guard lets this serial through. */
export function isAllowedSerial(serial: string, allowList: readonly string[]): boolean {
  try {
    checkSerial(serial, allowList);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses APPIUM_URL; throws APPIUM_UNAVAILABLE unless it is plain http on a loopback host. In remote
 * mode (ANDROID_MCP_REMOTE=1) https on any host is accepted too: the endpoint is a
 * Grid or a device farm, and credentials travel with every request, so never over plain http
 * beyond this machine. Userinfo never reaches here: the configuration takes it out (config.ts).
 */
export function checkAppiumUrl(url: string, remote = false): URL {
  // `localhost:4723` parses as the scheme `localhost:` with the path `4723`: say what is missing.
  if (SCHEMELESS_HOST_PORT.test(url)) {
    throw new HarnessError(
      'APPIUM_UNAVAILABLE',
      `APPIUM_URL '${printable(shownUrl(url))}' has no scheme. Write it as http://${printable(shownUrl(url))} (or unset it to let the harness start its own Appium).`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HarnessError(
      'APPIUM_UNAVAILABLE',
      `APPIUM_URL '${printable(shownUrl(url))}' is not a URL. Set it to something like http://127.0.0.1:4723 or unset it.`,
    );
  }
  const loopbackHttp = parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
  if (remote && (loopbackHttp || parsed.protocol === 'https:')) return parsed;
  if (remote) {
    throw new HarnessError(
      'APPIUM_UNAVAILABLE',
      `In remote mode APPIUM_URL must be https: (http: only on 127.0.0.1, localhost or [::1]); '${printable(shownUrl(url))}' is refused, since credentials would cross the network in clear. ` +
        'Use the https:// endpoint your Grid or device farm gives.',
    );
  }
  if (!loopbackHttp) {
    throw new HarnessError(
      'APPIUM_UNAVAILABLE',
      `APPIUM_URL must be http: on 127.0.0.1, localhost or [::1]; '${printable(shownUrl(url))}' is refused. ` +
        'Run Appium on this machine (npx appium --address 127.0.0.1 --port 4723) and point APPIUM_URL at it, ' +
        'or set ANDROID_MCP_REMOTE=1 for an https: Grid or device farm (docs/guide/many-devices.md, "Remote mode").',
    );
  }
  return parsed;
}

/**
 * A URL as a message may show it: origin and path only. Userinfo and query values may be a farm's
 * credentials (a signed endpoint carries them in its query), and a refusal is answered to the model.
 */
export function shownUrl(url: string): string {
  // `[\s\S]`, not `.`: a query is cut to the end even past a line break (`.` stops there and `$` then never matched).
  if (!URL.canParse(url)) return url.replace(/\/\/[^/?#]*@/, '//[redacted]@').replace(/[?#][\s\S]*/, '');
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  // A scheme the URL standard does not know (`localhost:4723`) has the origin 'null': show what was written.
  if (parsed.origin === 'null') return `${parsed.protocol}${parsed.host ? `//${parsed.host}` : ''}${path}`;
  return `${parsed.origin}${path}`;
}

/** Whether `host` (a URL's hostname) is this machine. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host);
}

/** Values come from the environment, not the model, but are still cut and stripped of control characters. */
function printable(value: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}
