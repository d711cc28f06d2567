/**
 * One "server process" for the cross-process lock tests: a container on the fakes with its own pid,
 * wired to a real FileDeviceLock in a shared directory. Two of them on one directory and one device
 * stand for two harness processes.
 */
import { createContainer } from '../../../src/container.js';
import type { HarnessConfig } from '../../../src/config.js';
import type { Envelope } from '../../../src/domain/envelope.js';
import { FileDeviceLock, type ProcessProbe } from '../../../src/infrastructure/lock/FileDeviceLock.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../FakeClock.js';
import type { FakeAutomation } from './FakeAutomation.js';
import type { FakeDevice } from './FakeDevice.js';
import { drive, envelopeOf, testConfig } from './harness.js';
import { MemoryEvidenceStore } from './MemoryEvidenceStore.js';
import { RecordingLogger } from './RecordingLogger.js';
import { SeededRandom } from './SeededRandom.js';

/** No process ever looks dead: a lock is only given back by its holder. */
export const everyoneAlive: ProcessProbe = { isAlive: () => true, startTime: () => null };

export function lockedServer(
  pid: number,
  directory: string,
  device: FakeDevice,
  automation: FakeAutomation,
  config: HarnessConfig = testConfig(),
) {
  const clock = new FakeClock();
  const lock = new FileDeviceLock({
    directory,
    serial: 'emulator-5554',
    logger: new RecordingLogger(),
    pid,
    hostname: 'h',
    probe: everyoneAlive,
  });
  const container = createContainer(config, {
    clock,
    random: new SeededRandom(pid),
    logger: new RecordingLogger(),
    device,
    automation,
    evidenceStore: new MemoryEvidenceStore(),
    imageTools: new PngImageTools(),
    env: {},
    deviceLock: lock,
  });
  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<Envelope> =>
    envelopeOf(await drive(clock, container.server.callTool(tool, args)));
  return { container, call, lock, clock };
}
