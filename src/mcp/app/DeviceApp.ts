/**
 * The device, live in the chat (MCP Apps): what the one `ui://` app shows after each call of a tool
 * that links it. The app's data rides in the result's `_meta` (SEP-1865, "Data Passing": `_meta` is
 * not for the model's context), never in `content` or `structuredContent`, so a model pays no token
 * for the pictures; a client without the extension never gets it (HarnessMcpServer decides).
 *
 * What it holds is the server's own view of the run, kept as facts (evidence ids, bounds) and turned
 * into pictures only when a host that renders the app asks: the newest screenshot, the newest read's
 * entries by ref (drawn only while that read describes the screen shown), the element the shown
 * step acted on, and the last few steps. Typed text never enters it, as it never enters a trace.
 */
import type { OperationResult } from '../../application/OperationRunner.js';
import type { ImageTools } from '../../domain/ports.js';
import type { ArtifactReader } from '../artifactResource.js';

export const DEVICE_APP_URI = 'ui://android-mcp-harness/device';
/** Where the app's data sits in a result's `_meta`: a key of this server's own, outside the reserved `io.modelcontextprotocol/` prefix. */
export const APP_DATA_KEY = 'android-mcp-harness/device';

/** The tools that link the app: the ones that read or change the screen. */
export const APP_TOOLS: ReadonlySet<string> = new Set([
  'ui_get_tree',
  'screen_capture',
  'app_open',
  'ui_tap',
  'ui_type_text',
  'ui_scroll',
  'device_back',
  'settings_open_apps',
  'app_open_link',
  'app_stop',
  'app_clear_data',
  'device_key',
  'device_rotate',
  'notifications_open',
  'ui_wait',
]);

/** How many steps the strip shows. */
export const STRIP_STEPS = 6;
/** The shown screenshot: enough for a chat column and a full-screen view, small enough to ride in each result. */
const SCREEN_MAX_SIDE = 1280;
const SCREEN_MAX_BYTES = 900_000;
const THUMB_MAX_SIDE = 96;
const THUMB_MAX_BYTES = 24_000;

type Box = readonly [number, number, number, number];

export interface AppStep {
  /** 1-based, in the order this server ran the calls. */
  readonly step: number;
  readonly tool: string;
  /** What the call named: a ref, a selector's words, a package; typed text only as its length. */
  readonly target: string | null;
  readonly ok: boolean;
  readonly code: string | null;
  /** The step's screenshot as a small PNG (base64), when it took one. */
  readonly thumb: string | null;
}

export interface AppRef {
  readonly ref: string;
  /** `[left, top, width, height]` in the screen's pixels. */
  readonly bounds: Box;
  /** The entry as the answer gave it to the model (what hovering shows); null when the answer did not carry it. */
  readonly entry: Readonly<Record<string, unknown>> | null;
}

/** The app's data for one result (the `_meta[APP_DATA_KEY]` object). */
export interface DeviceAppData {
  readonly step: AppStep;
  /** The newest screenshot of the run and the step that took it; null before any. */
  readonly screen: {
    readonly png: string;
    readonly width: number;
    readonly height: number;
    readonly step: number;
  } | null;
  /**
   * When the shown step acted on an element: the screen it acted on (the screenshot before it), on
   * which `acted` is drawn; the element's place there says nothing of the screen after.
   */
  readonly before: DeviceAppData['screen'];
  /** The newest read's entries, when that read came at or after the shown screenshot. */
  readonly refs: readonly AppRef[];
  readonly refs_step: number | null;
  /** Where the shown step acted, on `before`, when the shown screenshot is that action's. */
  readonly acted: Box | null;
  readonly acted_label: string | null;
  readonly steps: readonly AppStep[];
  /** True when the run's trace viewer can be read (`trace://session`). */
  readonly trace: boolean;
}

interface Recorded {
  readonly step: number;
  readonly tool: string;
  readonly target: string | null;
  readonly ok: boolean;
  readonly code: string | null;
  readonly artifactId: string | null;
  readonly bounds: Readonly<Record<string, Box>> | null;
  readonly entries: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly acted: Box | null;
  readonly actedLabel: string | null;
  /** The newest screenshot before this step's own (what an action acted on). */
  readonly before: Recorded | null;
  thumb?: string | null;
}

export interface DeviceAppOptions {
  readonly artifacts: ArtifactReader;
  readonly images: ImageTools;
  /** True when the run keeps a trace (its viewer one click away). */
  readonly traceAvailable: () => boolean;
}

export class DeviceApp {
  private serial = 0;
  private steps: Recorded[] = [];
  private lastScreen: Recorded | null = null;
  private lastRead: Recorded | null = null;
  /** The pictures of the last two screens shown (after and before), by evidence id. */
  private screens = new Map<string, NonNullable<DeviceAppData['screen']>>();

  constructor(private readonly options: DeviceAppOptions) {}

  /** Every call of a linking tool, whoever asked: the strip is the run's, not one client's. */
  record(tool: string, args: Readonly<Record<string, unknown>>, result: OperationResult): void {
    if (!APP_TOOLS.has(tool)) return;
    this.serial += 1;
    const { envelope, trace } = result;
    const recorded: Recorded = {
      step: this.serial,
      tool,
      target: targetOf(tool, args),
      ok: envelope.ok,
      code: envelope.error?.code ?? null,
      artifactId: envelope.evidence?.artifact_id ?? null,
      bounds: trace?.bounds ? (trace.bounds as Readonly<Record<string, Box>>) : null,
      entries: entriesOf(envelope.data),
      acted: trace?.acted ?? null,
      actedLabel: trace?.element?.label ?? null,
      before: this.lastScreen,
    };
    this.steps = [...this.steps, recorded].slice(-STRIP_STEPS);
    if (recorded.artifactId !== null) this.lastScreen = recorded;
    if (recorded.bounds !== null) this.lastRead = recorded;
  }

  /** The app's data as it stands after the newest recorded call. */
  async data(): Promise<DeviceAppData | null> {
    const current = this.steps.at(-1);
    if (!current) return null;
    const shown = this.lastScreen;
    const screen = shown ? await this.screenOf(shown) : null;
    const actedOn = shown?.acted && shown.before ? await this.screenOf(shown.before) : null;
    this.keepOnly([shown, actedOn ? shown?.before : null]);
    // Refs of a read before the shown screenshot would be drawn on a screen they may not describe.
    const read = this.lastRead !== null && (shown === null || this.lastRead.step >= shown.step) ? this.lastRead : null;
    const refs: AppRef[] = read
      ? Object.entries(read.bounds ?? {}).map(([ref, bounds]) => ({
          ref,
          bounds,
          entry: read.entries.get(ref) ?? null,
        }))
      : [];
    const steps: AppStep[] = [];
    for (const step of this.steps) steps.push(await this.stepOf(step));
    return {
      step: steps.at(-1)!,
      screen,
      refs: screen ? refs : [],
      refs_step: screen && read ? read.step : null,
      before: actedOn,
      acted: actedOn ? shown!.acted : null,
      acted_label: actedOn ? shown!.actedLabel : null,
      steps,
      trace: this.options.traceAvailable(),
    };
  }

  private keepOnly(kept: readonly (Recorded | null | undefined)[]): void {
    const ids = new Set(kept.map((recorded) => recorded?.artifactId));
    for (const id of [...this.screens.keys()]) if (!ids.has(id)) this.screens.delete(id);
  }

  private async screenOf(recorded: Recorded): Promise<DeviceAppData['screen']> {
    const id = recorded.artifactId!;
    const cached = this.screens.get(id);
    if (cached) return cached;
    const png = await this.options.artifacts.read(id);
    if (!png) return null;
    const preview = this.tryPreview(png);
    if (!preview) return null;
    const data = {
      png: preview.image.toString('base64'),
      width: preview.info.width,
      height: preview.info.height,
      step: recorded.step,
    };
    this.screens.set(id, data);
    return data;
  }

  private async stepOf(recorded: Recorded): Promise<AppStep> {
    if (recorded.thumb === undefined) {
      const png = recorded.artifactId === null ? null : await this.options.artifacts.read(recorded.artifactId);
      recorded.thumb = png ? this.tryThumb(png) : null;
    }
    const { step, tool, target, ok, code, thumb } = recorded;
    return { step, tool, target, ok, code, thumb };
  }

  private tryPreview(png: Buffer): ReturnType<ImageTools['preview']> | null {
    try {
      return this.options.images.preview(png, SCREEN_MAX_SIDE, SCREEN_MAX_BYTES);
    } catch {
      // A file that is not a PNG (never written by this server) is shown as no screen, never as an error.
      return null;
    }
  }

  private tryThumb(png: Buffer): string | null {
    try {
      return this.options.images.downscale(png, THUMB_MAX_SIDE, THUMB_MAX_BYTES).toString('base64');
    } catch {
      return null;
    }
  }
}

/** The answer's entries by ref (a whole read's `actions`; a diff's added and changed ones). */
function entriesOf(data: object): ReadonlyMap<string, Readonly<Record<string, unknown>>> {
  const entries = new Map<string, Readonly<Record<string, unknown>>>();
  const record = data as Record<string, unknown>;
  for (const key of ['actions', 'added', 'changed']) {
    const list = record[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list as unknown[]) {
      if (typeof entry === 'object' && entry !== null && typeof (entry as { ref?: unknown }).ref === 'string')
        entries.set((entry as { ref: string }).ref, entry as Readonly<Record<string, unknown>>);
    }
  }
  return entries;
}

/** What a step names, for the strip: never the text a call types. */
function targetOf(tool: string, args: Readonly<Record<string, unknown>>): string | null {
  const parts: string[] = [];
  const selector = args.selector;
  if (typeof selector === 'object' && selector !== null) {
    const named = selector as Record<string, unknown>;
    parts.push(
      typeof named.ref === 'string'
        ? named.ref
        : Object.entries(named)
            .filter(([, value]) => typeof value === 'string' || typeof value === 'boolean')
            .map(([key, value]) => `${key}=${String(value)}`)
            .join(' '),
    );
  }
  if (typeof args.package_name === 'string') parts.push(args.package_name);
  if (typeof args.direction === 'string') parts.push(args.direction);
  if (typeof args.key === 'string') parts.push(args.key);
  if (tool === 'ui_type_text' && typeof args.text === 'string') parts.push(`${args.text.length} characters`);
  const text = parts.filter((part) => part !== '').join(' · ');
  return text === '' ? null : text;
}
