/**
 * The only place that knows every layer: builds the adapters from the configuration, then, each
 * from what exists before it, the devices (wiring/devices.ts, one binding per device:
 * wiring/deviceBinding.ts), the services (wiring/services.ts), the MCP server and the tasks
 * (wiring/tasks.ts). Tests pass in-memory fakes for any port through `overrides`.
 */
import path from 'node:path';
import { EvidenceHolds } from './application/evidence/EvidenceHolds.js';
import type { HarnessServices } from './application/HarnessServices.js';
import { OperationRunner } from './application/OperationRunner.js';
import type { DeviceRouter } from './application/devices/DeviceRouter.js';
import type { DeviceBindings } from './application/devices/DeviceBindings.js';
import type { DeviceGate } from './application/ownership/DeviceGate.js';
import { EveryDeviceUiSessions } from './application/sessions/EveryDeviceUiSessions.js';
import type { UiSessions } from './application/sessions/UiSessions.js';
import type { GoalRunner } from './application/tasks/GoalRunner.js';
import { Ceilings } from './application/time/Ceilings.js';
import { withDeadline } from './application/time/deadline.js';
import type { Traces } from './application/trace/Traces.js';
import type { HarnessConfig } from './config.js';
import type {
  ApkFolder,
  AutomationGateway,
  Clock,
  DeviceDirectory,
  DeviceGateway,
  DeviceLock,
  EvidenceDirectory,
  EvidenceHoldBoard,
  EvidenceStore,
  ImageTools,
  Logger,
  RandomSource,
  TextRecognizer,
} from './domain/ports.js';
import type { AppiumEndpoint } from './infrastructure/appium/ManagedAppium.js';
import { SystemClock } from './infrastructure/clock/SystemClock.js';
import { FileEvidenceHoldBoard } from './infrastructure/fs/FileEvidenceHoldBoard.js';
import { FileEvidenceStore } from './infrastructure/fs/FileEvidenceStore.js';
import { defaultLockDirectory } from './infrastructure/lock/FileDeviceLock.js';
import { createLogger } from './infrastructure/logging/logger.js';
import { PngImageTools } from './infrastructure/png/PngImageTools.js';
import { PngPixelDigest } from './infrastructure/png/PngPixelDigest.js';
import { TesseractTextRecognizer } from './infrastructure/ocr/TesseractTextRecognizer.js';
import { VisualReader } from './application/screen/VisualReader.js';
import { CryptoRandom } from './infrastructure/random/CryptoRandom.js';
import { TRACES_FOLDER } from './infrastructure/trace/FileTraceStore.js';
import { HarnessMcpServer, ProtocolServer } from './mcp/HarnessMcpServer.js';
import { serverInstructions } from './mcp/instructions.js';
import { allTools, servedTools } from './mcp/tools/index.js';
import type { ToolDefinition } from './mcp/ToolDefinition.js';
import type { RestMirrorParts } from './rest/restMirror.js';
import type { DeviceAdapters } from './wiring/deviceAdapters.js';
import type { BindingParts, DevicePorts } from './wiring/deviceBinding.js';
import { createDevices } from './wiring/devices.js';
import { createGoalRunner } from './wiring/goalRunner.js';
import { localAdapters } from './wiring/localAdapters.js';
import { packageVersion } from './wiring/packageVersion.js';
import { remoteAdapters } from './wiring/remoteAdapters.js';
import { createServices } from './wiring/services.js';
import { createTasks, type ContainerTasks } from './wiring/tasks.js';
import { createTraces } from './wiring/traces.js';
import { createDeviceApp } from './wiring/deviceApp.js';

export type { ContainerTasks } from './wiring/tasks.js';

/** The ports, each replaceable (unit tests, the virtual device, managed Appium). */
export interface ContainerDeps {
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly logger: Logger;
  readonly device: DeviceGateway;
  readonly automation: AutomationGateway;
  /** The evidence directory: files written, read, listed and removed (the retention bound). */
  readonly evidenceStore: EvidenceStore & EvidenceDirectory;
  /**
   * What each process sharing the evidence directory holds. Default: a file per process in it
   * when the directory is the real one; none when an `evidenceStore` is injected.
   */
  readonly evidenceHoldBoard?: EvidenceHoldBoard | null;
  readonly imageTools: ImageTools;
  /** OCR for visual refs (docs/reference/summary.md, "Visual refs"); default tesseract.js in a worker process. */
  readonly textRecognizer: TextRecognizer;
  /** Environment used to locate adb (defaults to process.env). */
  readonly env: NodeJS.ProcessEnv;
  /** Where Appium is: APPIUM_URL as given, or the harness's own Appium started on first use. */
  readonly appium: AppiumEndpoint;
  /**
   * The device lock shared by every harness process on the machine. Default: a lock file
   * (ANDROID_MCP_LOCK_DIR, else the user's runtime directory) when the real adb gateway is
   * used; none when a `device` is injected (a fake device has no other process to meet).
   */
  readonly deviceLock?: DeviceLock | null;
  /**
   * Every device adb sees (device_list, discovery, identities). Default: adb's own listing and the
   * lock directory; none when a `device` is injected.
   */
  readonly directory?: DeviceDirectory;
  /** The folder app_install reads (ANDROID_MCP_APK_DIR). Default: that folder on this host. */
  readonly apkFolder?: ApkFolder;
  /** Ports for one more device by serial (tests of several devices on the fakes); unset ports fall back to the ones above. */
  readonly forDevice?: (serial: string) => DevicePorts | undefined;
  /** The loop behind `{goal}` tasks. Default: the configured model's (null without one); tests pass a loop on a scripted model. */
  readonly goalRunner?: GoalRunner | null;
}

export interface Container {
  readonly config: HarnessConfig;
  /** The process's logger (remote mode's hides the credentials) and Appium, to kill at exit. */
  readonly deps: Pick<ContainerDeps, 'logger' | 'appium'>;
  readonly services: HarnessServices;
  /** The tools the MCP server serves (the configured toolsets'). */
  readonly tools: readonly ToolDefinition[];
  /** The configured device's UI session and gate (tests on the fakes: no identity to read). */
  readonly sessions: UiSessions;
  readonly gate: DeviceGate;
  /** Which device's binding a call runs on; the REST mirror scopes `{id}` through it. */
  readonly router: DeviceRouter;
  readonly server: HarnessMcpServer;
  /** Tasks: the manager, the tools they call, and the goal's agent loop and catalogue. */
  readonly tasks: ContainerTasks;
  /** The session's trace and the tasks' (docs/reference/contract.md, "Traces"). */
  readonly traces: Traces;
  /** What the REST mirror calls (`serve --http`): the objects above, handed over, not looked up. */
  readonly restMirror: RestMirrorParts;
  /**
   * Closes the open UI session, the warm session and those of running actions, then
   * Appium if it is ours, then the MCP server. Bounded.
   */
  shutdown(): Promise<void>;
}

/** How long shutdown waits for running tasks to stop by themselves (within the process's 5 s exit deadline). */
const SHUTDOWN_TASKS_WAIT_MS = 1_000;

/** How long shutdown waits for the UI sessions' and running actions' sessions to close before giving up on them. */
const SHUTDOWN_SESSIONS_BUDGET_MS = 3_000;

export function createContainer(config: HarnessConfig, overrides: Partial<ContainerDeps> = {}): Container {
  const env = overrides.env ?? process.env;
  const clock = overrides.clock ?? new SystemClock();
  const random = overrides.random ?? new CryptoRandom();
  const adapters = adaptersFor(config, env, clock, overrides.logger);
  // Remote mode's credentials never reach stderr, whoever logs.
  const logger = adapters.logger;
  const version = packageVersion();
  // Made before Appium: a managed Appium boots at the first call that needs it, and the client sees
  // its progress (notifications/message) instead of a silent tool call.
  const protocol = new ProtocolServer(version, serverInstructions(config.toolsets));
  const appium = overrides.appium ?? adapters.appium(protocol.notifier('appium'));
  const ceilings = new Ceilings(
    clock,
    { actionTimeoutMs: config.actionTimeoutMs, connectTimeoutMs: config.connectTimeoutMs },
    logger,
  );
  adapters.announce(overrides.device !== undefined);
  const evidenceStore = overrides.evidenceStore ?? new FileEvidenceStore(config.artifactsDir);
  const holdBoard = holdBoardFor(config, overrides);
  // What an open UI session's answers gave out is kept while the session lives, whichever device it is on.
  const uiSessions = new EveryDeviceUiSessions();
  const holds = new EvidenceHolds((sessionId) => uiSessions.isOpenSession(sessionId), holdBoard, logger);
  const bindingParts: BindingParts = {
    config,
    env,
    adapters,
    appium,
    clock,
    random,
    logger,
    ceilings,
    lockDirectory: overrides.device ? null : defaultLockDirectory(env),
    holds,
    uiSessions,
    injected: overrides,
    ...(overrides.forDevice ? { forDevice: overrides.forDevice } : {}),
  };
  const { directory, resolver, bindings, router } = createDevices(bindingParts, overrides.directory);
  const imageTools = overrides.imageTools ?? new PngImageTools();
  // OCR only where the tree is silent; its worker process starts on the first such screen.
  const ocr = overrides.textRecognizer ?? new TesseractTextRecognizer(logger);
  const { services, evidence } = createServices({
    config,
    adapters,
    clock,
    logger,
    ceilings,
    router,
    directory,
    automation: overrides.automation ?? adapters.automation(config.udid, appium),
    evidenceStore,
    imageTools,
    visual: new VisualReader(ocr, new PngPixelDigest(), logger),
    holds,
    holdBoard,
    apkFolder: overrides.apkFolder ?? adapters.apkFolder,
  });
  // Built once: the MCP catalogue, the off toolsets' names, the REST mirror and tasks share these definitions.
  const everyTool = allTools(services);
  const tools = servedTools(everyTool, config.toolsets);
  const runner = new OperationRunner(random, logger, holds);
  const traces = createTraces(config, clock, logger, adapters.traceScrub, version);
  const server = new HarnessMcpServer({
    protocol,
    tools,
    runner,
    trace: traces.session,
    artifacts: evidence,
    offTools: everyTool.filter((tool) => !tools.includes(tool)),
    app: createDeviceApp(evidence, imageTools, traces, path.join(config.artifactsDir, TRACES_FOLDER)),
  });
  const goalRunner =
    overrides.goalRunner !== undefined ? overrides.goalRunner : createGoalRunner(config, { clock, logger });
  const tasks = createTasks({
    config,
    clock,
    random,
    logger,
    resolver,
    bindings,
    runner,
    everyTool,
    served: tools,
    traces,
    goalRunner,
  });
  return {
    config,
    deps: { logger, appium },
    services,
    tools,
    router,
    get sessions() {
      return bindings.bindNow(config.udid).sessions;
    },
    get gate() {
      return bindings.bindNow(config.udid).gate;
    },
    server,
    tasks,
    traces,
    restMirror: {
      tools: everyTool,
      runner,
      trace: traces.session,
      artifacts: evidence,
      resolver,
      router,
      tasks: { ...tasks, clock, tracesDir: path.join(config.artifactsDir, TRACES_FOLDER) },
      version,
    },
    shutdown: () => shutdownInOrder({ tasks, bindings, appium, server, ocr, clock, logger }),
  };
}

/** The one place local and remote mode part: everything after is built the same on either set. */
function adaptersFor(
  config: HarnessConfig,
  env: NodeJS.ProcessEnv,
  clock: Clock,
  logger: Logger | undefined,
): DeviceAdapters {
  const inputs = { config, env, clock, logger: logger ?? createLogger({ level: config.logLevel }) };
  return config.remote ? remoteAdapters(inputs, config.remote) : localAdapters(inputs);
}

/** A file per process in the evidence directory when it is the real one; none when a test injected a store. */
function holdBoardFor(config: HarnessConfig, overrides: Partial<ContainerDeps>): EvidenceHoldBoard | null {
  if (overrides.evidenceHoldBoard !== undefined) return overrides.evidenceHoldBoard;
  return overrides.evidenceStore ? null : new FileEvidenceHoldBoard(config.artifactsDir);
}

async function shutdownInOrder(parts: {
  readonly tasks: ContainerTasks;
  readonly bindings: DeviceBindings;
  readonly appium: AppiumEndpoint;
  readonly server: HarnessMcpServer;
  readonly ocr: TextRecognizer;
  readonly clock: Clock;
  readonly logger: Logger;
}): Promise<void> {
  const { logger } = parts;
  // Tasks first: each closes its own UI session, through the tools, while Appium still runs; what is
  // still open after the wait is closed below with every other session.
  await parts.tasks.manager.shutdown(SHUTDOWN_TASKS_WAIT_MS);
  // The OCR worker process, if a screen started it, ends with the server.
  parts.ocr.close();
  await withDeadline(
    parts.clock,
    SHUTDOWN_SESSIONS_BUDGET_MS,
    parts.bindings.shutdown(),
    'closing the Appium sessions at shutdown took too long',
  ).catch((error: unknown) =>
    logger.warn('the Appium sessions could not be closed at shutdown', { cause: String(error) }),
  );
  // After the sessions: closing them needs Appium alive.
  await parts.appium.stop().catch((error: unknown) => logger.warn('stopping Appium failed', { cause: String(error) }));
  await parts.server
    .close()
    .catch((error: unknown) => logger.warn('closing the MCP server failed', { cause: String(error) }));
}
