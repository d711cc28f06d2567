import type { DeviceGateway } from '../../domain/ports.js';
import type { UiSessions } from '../sessions/UiSessions.js';
import { readScreenViaAdb, readScreenViaDriver, type ScreenReading } from './ScreenReader.js';

/**
 * Where an observer reads the screen (ui_get_tree, ui_wait): the given flow, else an open flow or
 * the warm session (borrowed, its lease not renewed), else `uiautomator dump`. Android
 * lets one UiAutomation client register, so whoever holds a session must be read through it.
 */
export async function readScreenAsObserver(
  sessions: UiSessions,
  device: DeviceGateway,
  sessionId: string | undefined,
): Promise<ScreenReading> {
  if (sessionId !== undefined) return sessions.use(sessionId, (session) => readScreenViaDriver(device, session));
  const throughSession = await sessions.borrow((session) => readScreenViaDriver(device, session));
  return throughSession ? throughSession.value : readScreenViaAdb(device);
}
