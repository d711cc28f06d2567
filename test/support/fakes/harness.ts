import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HarnessConfig } from '../../../src/config.js';
import { createContainer, type Container, type ContainerDeps } from '../../../src/container.js';
import { OPERATION_ID_PATTERN, type Envelope } from '../../../src/domain/envelope.js';
import {
  WebdriverAutomationGateway,
  type RemoteFactory,
} from '../../../src/infrastructure/appium/WebdriverAutomationGateway.js';
import { FakeTextRecognizer } from './FakeTextRecognizer.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../FakeClock.js';
import { FakeAutomation } from './FakeAutomation.js';
import { FakeDevice } from './FakeDevice.js';
import { MemoryEvidenceStore } from './MemoryEvidenceStore.js';
import { RecordingLogger } from './RecordingLogger.js';
import { SeededRandom } from './SeededRandom.js';

export function testConfig(overrides: Partial<HarnessConfig> = {}): HarnessConfig {
  return {
    udid: 'emulator-5554',
    udidExplicit: true,
    allowSerials: [],
    appiumUrl: 'http://127.0.0.1:4723',
    appiumUrlExplicit: true,
    sessionIdleTimeoutMs: 60_000,
    // Off unless a test asks for it: these tests check one session per action (the warm session has its own tests).
    warmSessionTimeoutMs: 0,
    actionTimeoutMs: 90_000,
    findTimeoutMs: 10_000,
    connectTimeoutMs: 120_000,
    artifactsDir: '/nonexistent/artifacts',
    artifactsPathPrefix: 'artifacts/',
    // Every file kept unless a test bounds it: the retention bound has its own tests.
    artifactsRetention: { maxFiles: null, maxBytes: null },
    logLevel: 'silent',
    appiumExtraCapabilities: {},
    adbServerPort: null,
    toolsets: ['core'],
    apkDir: null,
    agentMaxSteps: 30,
    agentTimeoutMs: 600_000,
    model: null,
    remote: null,
    ...overrides,
  };
}

export interface TestHarness {
  readonly container: Container;
  readonly clock: FakeClock;
  readonly device: FakeDevice;
  readonly automation: FakeAutomation;
  readonly store: MemoryEvidenceStore;
  readonly logger: RecordingLogger;
  /** Calls a tool through the MCP server's single entry point (no transport). */
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The envelope of a call, moving the fake clock until it answers. */
  envelope(tool: string, args?: Record<string, unknown>): Promise<Envelope>;
}

/** Moves the fake clock in steps until `promise` settles (or `maxMs` of fake time passes). */
export async function drive<T>(clock: FakeClock, promise: Promise<T>, stepMs = 100, maxMs = 600_000): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  // Let work that needs no time finish first, so a quick call does not move the clock at all.
  for (let i = 0; i < 20 && !settled; i += 1) await new Promise((resolve) => setImmediate(resolve));
  for (let elapsed = 0; !settled && elapsed < maxMs; elapsed += stepMs) await clock.advance(stepMs);
  return promise;
}

/** `deps`: more ports to replace (a goal task's agent loop, the evidence hold board); the fakes above are always used. */
export function buildHarness(
  config: Partial<HarnessConfig> = {},
  deps: Pick<Partial<ContainerDeps>, 'goalRunner' | 'evidenceHoldBoard' | 'textRecognizer'> = {},
): TestHarness {
  const clock = new FakeClock();
  const device = new FakeDevice();
  const automation = new FakeAutomation();
  const store = new MemoryEvidenceStore();
  const logger = new RecordingLogger();
  const container = createContainer(testConfig(config), {
    clock,
    random: new SeededRandom(7),
    logger,
    device,
    automation,
    evidenceStore: store,
    imageTools: new PngImageTools(),
    // Never the real OCR in a unit test: a screen with unexposed content reads no line unless a test says so.
    textRecognizer: new FakeTextRecognizer(),
    env: {},
    ...deps,
  });
  const call = (tool: string, args: Record<string, unknown> = {}) => container.server.callTool(tool, args);
  return {
    container,
    clock,
    device,
    automation,
    store,
    logger,
    call,
    envelope: async (tool, args = {}) => envelopeOf(await drive(clock, call(tool, args))),
  };
}

/**
 * The envelope of a result, checked for what every answer must be (docs/reference/contract.md, "The
 * envelope"): an operation id of the published shape, and evidence that is `{artifact_id}` alone.
 */
export function envelopeOf(result: CallToolResult): Envelope {
  const envelope = result.structuredContent as unknown as Envelope;
  if (!OPERATION_ID_PATTERN.test(envelope.operation_id))
    throw new Error(`operation_id ${JSON.stringify(envelope.operation_id)} is not of the published shape`);
  if (envelope.evidence !== null && Object.keys(envelope.evidence).join(',') !== 'artifact_id')
    throw new Error(`evidence is not {artifact_id}: ${JSON.stringify(envelope.evidence)}`);
  return envelope;
}

export interface DriverHarness {
  readonly container: Container;
  readonly clock: FakeClock;
  readonly logger: RecordingLogger;
  /** The envelope of a call, moving the fake clock until it answers. */
  envelope(tool: string, args?: Record<string, unknown>): Promise<Envelope>;
}

/**
 * The container over the real WebdriverAutomationGateway (capabilities, error mapping, logging),
 * with the driver that webdriverio's `remote` would return supplied by the test; `remoteFor`
 * gets the harness's fake clock so the driver can keep time with it.
 */
export function buildDriverHarness(
  config: Partial<HarnessConfig>,
  remoteFor: (clock: FakeClock) => RemoteFactory,
  seed = 7,
): DriverHarness {
  const clock = new FakeClock();
  const logger = new RecordingLogger();
  const full = testConfig(config);
  const automation = new WebdriverAutomationGateway({
    url: full.appiumUrl,
    udid: full.udid,
    connectTimeoutMs: full.connectTimeoutMs,
    logger,
    clock,
    remote: remoteFor(clock),
  });
  const container = createContainer(full, {
    clock,
    random: new SeededRandom(seed),
    logger,
    device: new FakeDevice(),
    automation,
    evidenceStore: new MemoryEvidenceStore(),
    imageTools: new PngImageTools(),
    textRecognizer: new FakeTextRecognizer(),
    env: {},
  });
  return {
    container,
    clock,
    logger,
    envelope: async (tool, args = {}) => envelopeOf(await drive(clock, container.server.callTool(tool, args))),
  };
}
