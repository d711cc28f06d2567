/**
 * The only place that knows every layer: builds the adapters from the configuration,
 * the application services on top of them, and the MCP server on top of those.
 * Tests pass in-memory fakes for any port through `overrides`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ceilings } from './application/time/Ceilings.js';
import { withDeadline } from './application/time/deadline.js';
import type { DeviceBinding } from './application/devices/DeviceBinding.js';
import { DeviceBindings } from './application/devices/DeviceBindings.js';
import { DeviceResolver } from './application/devices/DeviceResolver.js';
import { DeviceRouter } from './application/devices/DeviceRouter.js';
import { DeviceAccess } from './application/ownership/DeviceAccess.js';
import { DeviceGate } from './application/ownership/DeviceGate.js';
import { EvidenceCapture } from './application/evidence/EvidenceCapture.js';
import { EvidenceHolds } from './application/evidence/EvidenceHolds.js';
import { EvidenceRetention } from './application/evidence/EvidenceRetention.js';
import { EvidenceWriter } from './application/evidence/EvidenceWriter.js';
import { UiSessions } from './application/sessions/UiSessions.js';
import type { HarnessServices } from './application/HarnessServices.js';
import { OperationRunner } from './application/OperationRunner.js';
import { SessionBroker } from './application/sessions/SessionBroker.js';
import { OneSessionAtATime } from './application/sessions/OneSessionAtATime.js';
import { SessionHoldingAutomation } from './application/sessions/SessionHoldingAutomation.js';
import { WarmSession } from './application/ownership/WarmSession.js';
import { AppResetService } from './application/services/AppResetService.js';
import { LinkService } from './application/links/LinkService.js';
import { AppInstallService } from './application/services/AppInstallService.js';
import { AppLaunchService } from './application/services/AppLaunchService.js';
import { CaptureService } from './application/services/CaptureService.js';
import { DeviceListService } from './application/services/DeviceListService.js';
import { DiagnosticsService } from './application/services/DiagnosticsService.js';
import { UiSessionService } from './application/services/UiSessionService.js';
import { SettingsService } from './application/services/SettingsService.js';
import { StatusService } from './application/services/StatusService.js';
import { TreeService } from './application/services/TreeService.js';
import { RefRegistry } from './application/screen/RefRegistry.js';
import { ScreenReads } from './application/screen/ScreenReads.js';
import { UiActionService } from './application/services/UiActionService.js';
import { WaitService } from './application/services/WaitService.js';
import type { HarnessConfig } from './config.js';
import type { DeviceIdentity } from './domain/devices/identity.js';
import type {
  ApkFolder,
  AutomationGateway,
  Clock,
  DeviceDirectory,
  DeviceGateway,
  DeviceLock,
  DriverSessionSource,
  EvidenceDirectory,
  EvidenceHoldBoard,
  EvidenceStore,
  ImageTools,
  TextRecognizer,
  Logger,
  RandomSource,
} from './domain/ports.js';
import type { AppiumEndpoint } from './infrastructure/appium/ManagedAppium.js';
import { SystemClock } from './infrastructure/clock/SystemClock.js';
import { FileEvidenceHoldBoard } from './infrastructure/fs/FileEvidenceHoldBoard.js';
import { FileEvidenceStore } from './infrastructure/fs/FileEvidenceStore.js';
import { createGoalRunner } from './wiring/goalRunner.js';
import { defaultLockDirectory, FileDeviceLock, lockDirectoriesToTidy } from './infrastructure/lock/FileDeviceLock.js';
import { createLogger } from './infrastructure/logging/logger.js';
import { ObserverSessions } from './application/sessions/ObserverSessions.js';
import { PngImageTools } from './infrastructure/png/PngImageTools.js';
import { PngPixelDigest } from './infrastructure/png/PngPixelDigest.js';
import { TesseractTextRecognizer } from './infrastructure/ocr/TesseractTextRecognizer.js';
import { VisualReader } from './application/screen/VisualReader.js';
import { CryptoRandom } from './infrastructure/random/CryptoRandom.js';
import { HarnessMcpServer } from './mcp/HarnessMcpServer.js';
import { serverInstructions } from './mcp/instructions.js';
import { allTools, createTools } from './mcp/tools/index.js';
import { goalCatalog, taskToolsFor } from './mcp/tasks/taskTools.js';
import type { GoalRunner } from './application/tasks/GoalRunner.js';
import type { GoalTaskDeps } from './application/tasks/goalTask.js';
import type { TaskTools } from './application/tasks/Task.js';
import { TaskManager } from './application/tasks/TaskManager.js';
import { TRACES_FOLDER } from './infrastructure/trace/FileTraceStore.js';
import { createTraces } from './wiring/traces.js';
import { createDeviceApp } from './wiring/deviceApp.js';
import type { Traces } from './application/trace/Traces.js';
import type { ToolDefinition } from './mcp/ToolDefinition.js';
import type { FlowCheckOptions } from './flow/flowSteps.js';
import type { RestMirrorParts } from './rest/restMirror.js';
import { localAdapters } from './wiring/localAdapters.js';
import { remoteAdapters } from './wiring/remoteAdapters.js';

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
  readonly forDevice?: (serial: string) =>
    | {
        readonly device?: DeviceGateway;
        readonly automation?: AutomationGateway;
        readonly deviceLock?: DeviceLock | null;
      }
    | undefined;
  /** The loop behind `{goal}` tasks. Default: the configured model's (null without one); tests pass a loop on a scripted model. */
  readonly goalRunner?: GoalRunner | null;
}

export interface Container {
  readonly config: HarnessConfig;
  readonly deps: Omit<ContainerDeps, 'env' | 'device'>;
  readonly services: HarnessServices;
  readonly tools: readonly ToolDefinition[];
  /** Every device this process has bound. */
  readonly bindings: DeviceBindings;
  /** The configured device's UI session, warm session and gate (tests on the fakes: no identity to read). */
  readonly sessions: UiSessions;
  /** The session kept after an action without session_id. */
  readonly warm: WarmSession;
  readonly gate: DeviceGate;
  /** Which device a name (serial or AVD name) or no name means; the REST mirror's `{id}`. */
  readonly resolver: DeviceResolver;
  /** Which device's binding a call runs on; the REST mirror scopes `{id}` through it. */
  readonly router: DeviceRouter;
  readonly evidence: EvidenceWriter;
  /** What each device's last screen read was, as the client was answered it (`last`, `latest`). */
  readonly reads: ScreenReads;
  readonly runner: OperationRunner;
  readonly server: HarnessMcpServer;
  /** Tasks: the manager, the tools they call, and the goal's agent loop and catalogue. */
  readonly tasks: ContainerTasks;
  /** Runs `{goal}` tasks; null when no model is configured: such a task is refused. */
  readonly goalRunner: GoalRunner | null;
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

export interface ContainerTasks {
  readonly manager: TaskManager;
  readonly tools: TaskTools;
  /** The tools of one new task, each call a line of the task's own trace (null when traces are off). */
  traced(): { readonly tools: TaskTools; readonly trace: string | null };
  readonly goal: Omit<GoalTaskDeps, 'tools'>;
  /** A flow task's steps may use the tools of the toolsets this server serves. */
  readonly flowCheck: FlowCheckOptions;
}

/** How long shutdown waits for running tasks to stop by themselves (within the process's 5 s exit deadline). */
const SHUTDOWN_TASKS_WAIT_MS = 1_000;

/** How long shutdown waits for the UI sessions' and running actions' sessions to close before giving up on them. */
const SHUTDOWN_SESSIONS_BUDGET_MS = 3_000;

export function packageVersion(): string {
  try {
    const raw = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const version = (JSON.parse(raw) as { version?: unknown }).version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export function createContainer(config: HarnessConfig, overrides: Partial<ContainerDeps> = {}): Container {
  const env = overrides.env ?? process.env;
  const clock = overrides.clock ?? new SystemClock();
  const random = overrides.random ?? new CryptoRandom();
  const baseLogger = overrides.logger ?? createLogger({ level: config.logLevel });
  // The one place local and remote mode part: everything below is built the same on either set.
  const adapters = config.remote
    ? remoteAdapters({ config, env, clock, logger: baseLogger }, config.remote)
    : localAdapters({ config, env, clock, logger: baseLogger });
  // Remote mode's credentials never reach stderr, whoever logs.
  const logger = adapters.logger;
  // The MCP server exists only further down; boot progress reaches the client through it.
  let notifyClient: (message: string) => void = () => undefined;
  const appium = overrides.appium ?? adapters.appium((message) => notifyClient(message));
  // Appium's own /status (emulator_get_status): the endpoint's, whichever device.
  const automation = overrides.automation ?? adapters.automation(config.udid, appium);
  const evidenceStore = overrides.evidenceStore ?? new FileEvidenceStore(config.artifactsDir);
  const imageTools = overrides.imageTools ?? new PngImageTools();
  const holdBoard =
    overrides.evidenceHoldBoard !== undefined
      ? overrides.evidenceHoldBoard
      : overrides.evidenceStore
        ? null
        : new FileEvidenceHoldBoard(config.artifactsDir);

  const allowSerials = adapters.allowSerials;
  const ceilings = new Ceilings(
    clock,
    { actionTimeoutMs: config.actionTimeoutMs, connectTimeoutMs: config.connectTimeoutMs },
    logger,
  );
  const lockDirectory = overrides.device ? null : defaultLockDirectory(env);
  adapters.announce(overrides.device !== undefined);
  // What an open UI session's answers gave out is kept while the session lives, whichever device it is on.
  const holds = new EvidenceHolds(
    (sessionId) => bindings.all().some((binding) => binding.sessions.isOpenSession(sessionId)),
    holdBoard,
    logger,
  );
  // One binding per device identity: its own gate, lock, UI session, warm session and Appium sessions.
  const bind = (serial: string, identity: DeviceIdentity): DeviceBinding => {
    const custom = overrides.forDevice?.(serial);
    // Remote mode reads through the binding's own sessions, which exist only further down.
    let observer: ObserverSessions | null = null;
    const driverSessions: DriverSessionSource = {
      withSession: (body) => {
        if (!observer) throw new Error('the device was used before its binding was complete');
        return observer.withSession(body);
      },
    };
    const device = custom?.device ?? overrides.device ?? adapters.device(serial, driverSessions);
    const deviceAutomation = custom?.automation ?? overrides.automation ?? adapters.automation(serial, appium);
    const deviceLock =
      custom?.deviceLock !== undefined
        ? custom.deviceLock
        : overrides.deviceLock !== undefined
          ? overrides.deviceLock
          : lockDirectory === null
            ? null
            : new FileDeviceLock({
                directory: lockDirectory,
                serial: identity.key,
                logger,
                releaseOnExit: true,
                removeWhenEmpty: lockDirectoriesToTidy(env),
              });
    const gate = new DeviceGate(clock, deviceLock ?? undefined);
    // An Appium session (a UI session's above all) keeps the device this process's between calls.
    // A new session also waits until the one a timeout left closing is gone (its delete would kill the new server).
    const holding = deviceLock ? new SessionHoldingAutomation(deviceAutomation, deviceLock, clock, logger) : null;
    const sessionAutomation = new OneSessionAtATime(holding ?? deviceAutomation, clock, logger);
    // The session of an action without session_id, kept for the next one (WarmSession).
    const warm = new WarmSession(clock, ceilings, sessionAutomation, logger, config.warmSessionTimeoutMs);
    const access = new DeviceAccess(
      gate,
      ceilings,
      device,
      { udid: serial, allowSerials, appiumUrl: config.appiumUrl, remote: adapters.remote },
      warm,
    );
    // A UI session that ends (closed, expired, voided) holds its evidence no longer: the board says so at once.
    const sessions = new UiSessions(
      clock,
      random,
      ceilings,
      sessionAutomation,
      logger,
      config.sessionIdleTimeoutMs,
      warm,
      () => void holds.publish(),
    );
    // The device went away under a session: end them all and give the device back now (DeviceAccess).
    access.whenVanished({
      hasSession: () => sessions.isOpen || warm.holdsSession || (holding?.holdsDevice ?? false),
      end: () => {
        const hadUiSession = sessions.deviceGone();
        void warm.release('device_gone');
        holding?.releaseNow();
        return hadUiSession;
      },
    });
    observer = new ObserverSessions(sessions, warm);
    const broker = new SessionBroker(sessions, warm);
    return {
      serial,
      identity,
      gate,
      access,
      sessions,
      warm,
      broker,
      shutdown: async () => {
        await Promise.all([sessions.shutdown(), broker.shutdown()]);
      },
    };
  };
  // Without a device list (a fake device injected, or remote mode: no adb) the configured serial is the only device.
  const directory: DeviceDirectory | null =
    overrides.directory ?? (overrides.device ? null : adapters.directory(lockDirectory));
  const resolver = new DeviceResolver(directory, ceilings, {
    udid: config.udid,
    udidExplicit: config.udidExplicit,
    allowSerials,
  });
  const identify = directory
    ? async (serial: string): Promise<DeviceIdentity> =>
        (await ceilings.action('reading the device properties', directory.facts(serial))).identity
    : null;
  const bindings = new DeviceBindings(bind, identify, allowSerials, logger, (serial) => adapters.identity(serial));
  const router = new DeviceRouter(resolver, bindings, config.appiumUrl, adapters.remote);
  const retention = new EvidenceRetention(evidenceStore, holds, holdBoard, config.artifactsRetention, clock, logger);
  const evidence = new EvidenceWriter(evidenceStore, imageTools, clock, logger, retention);
  const capture = new EvidenceCapture(evidence, logger);
  // One registry per server: a ref's serial never repeats while it runs.
  const refs = new RefRegistry();
  // The last read per device, and read ids: what a diff is relative to.
  const reads = new ScreenReads(refs);
  // OCR only where the tree is silent; its worker process starts on the first such screen.
  const ocr = overrides.textRecognizer ?? new TesseractTextRecognizer(logger);
  const visual = new VisualReader(ocr, new PngPixelDigest(), logger);

  const services: HarnessServices = {
    status: new StatusService(router, automation, ceilings, config.appiumUrl, adapters.remote),
    tree: new TreeService(router, reads, visual),
    capture: new CaptureService(router, capture),
    appLaunch: new AppLaunchService(router, capture, clock, reads),
    sessions: new UiSessionService(router),
    actions: new UiActionService(router, capture, logger, clock, refs, reads, visual),
    settings: new SettingsService(router, capture, clock, reads),
    waits: new WaitService(router, clock, reads),
    appReset: new AppResetService(router, capture, clock, reads),
    links: new LinkService(router, capture, clock, reads),
    appInstall: new AppInstallService(router, capture, overrides.apkFolder ?? adapters.apkFolder, clock, reads),
    diagnostics: new DiagnosticsService(router),
    devices: new DeviceListService(directory ?? adapters.listing(), ceilings, {
      udid: config.udidExplicit ? config.udid : null,
      allowSerials: config.allowSerials,
    }),
  };
  const tools = createTools(services, config.toolsets);
  const runner = new OperationRunner(random, logger, holds);
  const traces = createTraces(config, clock, logger, adapters.traceScrub, packageVersion());
  const goalRunner =
    overrides.goalRunner !== undefined ? overrides.goalRunner : createGoalRunner(config, { clock, logger });
  const server = new HarnessMcpServer({
    version: packageVersion(),
    tools,
    runner,
    trace: traces.session,
    artifacts: evidence,
    instructions: serverInstructions(config.toolsets),
    offTools: allTools(services).filter((tool) => !tools.some((on) => on.name === tool.name)),
    app: createDeviceApp(evidence, imageTools, traces, path.join(config.artifactsDir, TRACES_FOLDER)),
  });
  const tasks: ContainerTasks = {
    // One lane per device identity, as for the gate and the lock: two serials of one emulator queue together.
    manager: new TaskManager(
      clock,
      random,
      logger,
      async (name) => (await bindings.forSerial(await resolver.resolve(name))).identity.key,
    ),
    // Every tool, whatever the toolsets, as the REST mirror: a task is not sent a catalogue.
    tools: taskToolsFor(runner, allTools(services)),
    traced: () => {
      const trace = traces.open('task');
      return { tools: taskToolsFor(runner, allTools(services), trace ?? undefined), trace: trace?.name ?? null };
    },
    goal: {
      runner: goalRunner,
      // The model is offered the served catalogue's in-session tools, as an MCP client would be.
      catalog: goalCatalog(tools),
      limits: { maxSteps: config.agentMaxSteps, maxDurationMs: config.agentTimeoutMs },
    },
    flowCheck: {
      toolsets: config.toolsets,
      enable: (toolset) => `start the server with --toolsets ${toolset} (or ANDROID_MCP_TOOLSETS=${toolset})`,
    },
  };
  notifyClient = (message) => {
    // notifications/message: the client sees Appium booting instead of a silent tool call.
    server.server.sendLoggingMessage({ level: 'info', logger: 'appium', data: message }).catch(() => undefined);
  };

  const shutdown = async (): Promise<void> => {
    // Tasks first: each closes its own UI session, through the tools, while Appium still runs; what is
    // still open after the wait is closed below with every other session.
    await tasks.manager.shutdown(SHUTDOWN_TASKS_WAIT_MS);
    // The OCR worker process, if a screen started it, ends with the server.
    ocr.close();
    const closingSessions = bindings.shutdown();
    await withDeadline(
      clock,
      SHUTDOWN_SESSIONS_BUDGET_MS,
      closingSessions,
      'closing the Appium sessions at shutdown took too long',
    ).catch((error: unknown) =>
      logger.warn('the Appium sessions could not be closed at shutdown', { cause: String(error) }),
    );
    // After the sessions: closing them needs Appium alive.
    await appium.stop().catch((error: unknown) => logger.warn('stopping Appium failed', { cause: String(error) }));
    await server
      .close()
      .catch((error: unknown) => logger.warn('closing the MCP server failed', { cause: String(error) }));
  };

  return {
    config,
    deps: { clock, random, logger, automation, evidenceStore, imageTools, textRecognizer: ocr, appium },
    services,
    tools,
    bindings,
    resolver,
    router,
    get sessions() {
      return bindings.bindNow(config.udid).sessions;
    },
    get warm() {
      return bindings.bindNow(config.udid).warm;
    },
    get gate() {
      return bindings.bindNow(config.udid).gate;
    },
    evidence,
    reads,
    runner,
    server,
    tasks,
    goalRunner,
    traces,
    restMirror: {
      services,
      runner,
      trace: traces.session,
      artifacts: evidence,
      resolver,
      router,
      tasks: { ...tasks, clock, tracesDir: path.join(config.artifactsDir, TRACES_FOLDER) },
      version: packageVersion(),
    },
    shutdown,
  };
}
