/**
 * Selenium Grid 4's own failures, as they reach the harness through webdriverio, mapped to the
 * harness's typed errors (docs/reference/contract.md, "Many devices"; sources in docs/internals/device-quirks.md).
 * One module for every way of reaching a Grid (APPIUM_URL naming a loopback hub, and the remote
 * mode), so the words a client sees for "the Grid" are the same everywhere.
 *
 * What the Grid answers (Selenium 4.48.0, read from its source and seen on the wire):
 * - New session queued past `--session-request-timeout`: LocalNewSessionQueue.addToQueue
 *   completes the request with `SessionNotCreatedException("New session request timed out")`;
 *   over the wire HTTP 500 `{"value": {"error": "session not created", "message": "Could not
 *   start a new session. New session request timed out \nHost info: …"}}`. Every slot whose
 *   stereotype matches (here: the one node for `appium:udid`) was busy the whole time, or its
 *   node was DOWN: for the harness that is the device taken, EMULATOR_BUSY.
 * - A command for a session whose node is gone: the router's HandleSession.execute fails to
 *   proxy and answers HTTP 500 `{"error": "unknown error", "message": "Unable to execute request
 *   for an existing session: Connection error (GET http://<node>/session/<id>/source)"}`; once the
 *   hub has dropped the node it answers 404 `invalid session id` "Unable to find session with ID:
 *   <id>" (LocalSessionMap.get). A relay node whose Appium is gone
 *   answers 500 "Connection error (GET http://<appium>/session/<id>/…)". In each case the session
 *   is lost: APPIUM_UNAVAILABLE, which voids the UI session (UiSessions) as any lost driver does.
 *
 * Nothing of the Grid's text is repeated to the client: it carries host names, node URLs, the
 * Java version and, in remote mode, possibly a farm's account details.
 */
import { HarnessError } from '../../domain/errors.js';

/** LocalNewSessionQueue's words for a request that waited its whole session-request-timeout. */
const QUEUE_TIMED_OUT = /New session request timed out/i;

/**
 * HandleSession's prefix for any failure to relay a command to the node holding the session;
 * Selenium's JdkHttpClient ConnectionException text ("Connection error (GET http://…)") when the
 * node, or the Appium behind a relay node, no longer accepts connections; and the session map's
 * NoSuchSessionException once the hub has dropped the node with its sessions (Appium's own
 * words for an unknown session differ: "session is either terminated or not started").
 */
const NODE_LOST =
  /Unable to execute request for an existing session|Connection error \((?:GET|POST|DELETE|PUT) |Unable to find session with ID/i;

/** The text of a driver error: webdriverio puts the Grid's `value.message` into `message`. */
function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  const record = error as { message?: unknown; cause?: { message?: unknown } } | null;
  const own = typeof record?.message === 'string' ? record.message : '';
  const cause = typeof record?.cause?.message === 'string' ? record.cause.message : '';
  return `${own}\n${cause}`;
}

/** Whether a failed POST /session is the Grid's new-session queue timing out. */
export function isGridQueueTimeout(error: unknown): boolean {
  return QUEUE_TIMED_OUT.test(messageOf(error));
}

/** Whether a failed command is the Grid unable to reach the node (or node's Appium) that holds the session. */
export function isGridNodeLost(error: unknown): boolean {
  return NODE_LOST.test(messageOf(error));
}

/**
 * The typed error for a failed session creation that is the Grid's, or null when the failure
 * is not one of the Grid's (the caller maps it as any Appium failure).
 */
export function gridSessionError(error: unknown, udid: string): HarnessError | null {
  if (isGridQueueTimeout(error)) {
    return new HarnessError(
      'EMULATOR_BUSY',
      `The device ${udid} is busy: the Selenium Grid had no free node for it before its session-request-timeout ran out (another session holds the device, or its node is down). Wait for the other session to end, or check the Grid's /status for the node serving ${udid}, then retry.`,
      { cause: error },
    );
  }
  if (isGridNodeLost(error)) return nodeLost(error, udid);
  return null;
}

/**
 * The typed error for a failed command that is the Grid losing the session's node, or null.
 * APPIUM_UNAVAILABLE: the UI session holding the Appium session is voided by its owner.
 */
export function gridCommandError(error: unknown, udid: string): HarnessError | null {
  return isGridNodeLost(error) ? nodeLost(error, udid) : null;
}

function nodeLost(error: unknown, udid: string): HarnessError {
  return new HarnessError(
    'APPIUM_UNAVAILABLE',
    `The Selenium Grid could not reach the node that held the session on ${udid} (the node or its Appium server is gone); the session is lost. Open a new UI session with ui_session_open once the Grid lists a node for ${udid} as UP again.`,
    { cause: error },
  );
}
