/**
 * The use cases, one service per capability, over the devices' router and the evidence they write:
 * what every tool, the REST mirror and tasks call.
 */
import type { DeviceRouter } from '../application/devices/DeviceRouter.js';
import { EvidenceCapture } from '../application/evidence/EvidenceCapture.js';
import type { EvidenceHolds } from '../application/evidence/EvidenceHolds.js';
import { EvidenceRetention } from '../application/evidence/EvidenceRetention.js';
import { EvidenceWriter } from '../application/evidence/EvidenceWriter.js';
import type { HarnessServices } from '../application/HarnessServices.js';
import { LinkService } from '../application/links/LinkService.js';
import { RefRegistry } from '../application/screen/RefRegistry.js';
import { ScreenReads } from '../application/screen/ScreenReads.js';
import type { VisualReader } from '../application/screen/VisualReader.js';
import { AppInstallService } from '../application/services/AppInstallService.js';
import { AppLaunchService } from '../application/services/AppLaunchService.js';
import { AppResetService } from '../application/services/AppResetService.js';
import { CaptureService } from '../application/services/CaptureService.js';
import { DeviceListService } from '../application/services/DeviceListService.js';
import { DiagnosticsService } from '../application/services/DiagnosticsService.js';
import { SettingsService } from '../application/services/SettingsService.js';
import { StatusService } from '../application/services/StatusService.js';
import { TreeService } from '../application/services/TreeService.js';
import { UiActionService } from '../application/services/UiActionService.js';
import { UiSessionService } from '../application/services/UiSessionService.js';
import { WaitService } from '../application/services/WaitService.js';
import type { Ceilings } from '../application/time/Ceilings.js';
import type { HarnessConfig } from '../config.js';
import type {
  ApkFolder,
  AutomationGateway,
  Clock,
  DeviceDirectory,
  EvidenceDirectory,
  EvidenceHoldBoard,
  EvidenceStore,
  ImageTools,
  Logger,
} from '../domain/ports.js';
import type { DeviceAdapters } from './deviceAdapters.js';

export interface ServiceParts {
  readonly config: HarnessConfig;
  readonly adapters: DeviceAdapters;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly ceilings: Ceilings;
  readonly router: DeviceRouter;
  /** Every device adb sees; null: device_list asks the adapters' listing. */
  readonly directory: DeviceDirectory | null;
  /** Appium's own /status (emulator_get_status): the endpoint's, whichever device. */
  readonly automation: AutomationGateway;
  readonly evidenceStore: EvidenceStore & EvidenceDirectory;
  readonly imageTools: ImageTools;
  /** Visual refs: OCR where the tree is silent. */
  readonly visual: VisualReader;
  readonly holds: EvidenceHolds;
  readonly holdBoard: EvidenceHoldBoard | null;
  readonly apkFolder: ApkFolder;
}

export interface Services {
  readonly services: HarnessServices;
  /** What the tools write evidence through, and the artifact:// resource reads. */
  readonly evidence: EvidenceWriter;
}

export function createServices(parts: ServiceParts): Services {
  const { config, adapters, clock, logger, ceilings, router } = parts;
  const retention = new EvidenceRetention(
    parts.evidenceStore,
    parts.holds,
    parts.holdBoard,
    config.artifactsRetention,
    clock,
    logger,
  );
  const evidence = new EvidenceWriter(parts.evidenceStore, parts.imageTools, clock, logger, retention);
  const capture = new EvidenceCapture(evidence, logger);
  // One registry per server: a ref's serial never repeats while it runs.
  const refs = new RefRegistry();
  // The last read per device, and read ids: what a diff is relative to.
  const reads = new ScreenReads(refs, parts.visual);
  const services: HarnessServices = {
    status: new StatusService(router, parts.automation, ceilings, config.appiumUrl, adapters.remote),
    tree: new TreeService(router, reads, parts.visual),
    capture: new CaptureService(router, capture),
    appLaunch: new AppLaunchService(router, capture, clock, reads),
    sessions: new UiSessionService(router),
    actions: new UiActionService(router, capture, logger, clock, refs, reads, config.findTimeoutMs, parts.visual),
    settings: new SettingsService(router, capture, clock, reads),
    waits: new WaitService(router, clock, reads),
    appReset: new AppResetService(router, capture, clock, reads),
    links: new LinkService(router, capture, clock, reads),
    appInstall: new AppInstallService(router, capture, parts.apkFolder, clock, reads),
    diagnostics: new DiagnosticsService(router),
    devices: new DeviceListService(parts.directory ?? adapters.listing(), ceilings, {
      udid: config.udidExplicit ? config.udid : null,
      allowSerials: config.allowSerials,
    }),
  };
  return { services, evidence };
}
