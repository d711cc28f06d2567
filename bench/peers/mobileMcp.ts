/**
 * What @mobilenext/mobile-mcp's `mobile_list_elements_on_screen` gives a model for a dump.
 *
 * Rebuilt (our own code) from the published package @mobilenext/mobile-mcp 1.0.4, lib/android.js
 * (AndroidRobot.collectElements / getUiAutomatorXml / getScreenElementRect) and lib/format-elements.js:
 *  - the dump is parsed with fast-xml-parser, `ignoreAttributes: false, attributeNamePrefix: ""`
 *    (so attribute values are trimmed and numeric character references stay as written);
 *  - the walk is post-order: a node's children are listed before the node itself;
 *  - a node is kept when it has a truthy `text`, `content-desc`, `hint` or `resource-id`, or
 *    `checkable="true"`, and its bounds give width > 0 and height > 0 (bounds must match
 *    `^\[(\d+),(\d+)\]\[(\d+),(\d+)\]$`, so negative coordinates drop the node);
 *  - element: `{type: class || "text", text, label: content-desc || hint || "", rect, focused?: true,
 *    identifier?: resource-id}`;
 *  - output "json": `Found these elements on screen: ` + JSON of `{ref, type, text, label, name, value,
 *    identifier, coordinates: {x, y, width, height}, focused?}` (undefined keys vanish in JSON);
 *    output "text" (1.0.4's default): a header line, then one line per element
 *    `Type text="…" label="…" id="…" at=x,y size=WxH [focused]` (short class name, empty parts omitted).
 * The result is a plain text content block (no structuredContent).
 * In 1.0.4 the default robot is the `mobilecli` binary, which adds a `@eN` ref per element; the legacy
 * AndroidRobot path rebuilt here (MOBILEMCP_LEGACY_ROBOT=1) has no refs, so the text figure is a lower bound.
 */
import { XMLParser } from 'fast-xml-parser';

export interface MobileMcpElement {
  /** Index of the source node in document order (the same numbering as our UiTree.nodes). */
  readonly order: number;
  readonly type: string;
  readonly text: string | undefined;
  readonly label: string;
  readonly identifier?: string;
  readonly focused?: true;
  readonly rect: { x: number; y: number; width: number; height: number };
}

type XmlObject = Record<string, unknown>;

const asArray = (v: unknown): XmlObject[] =>
  v === undefined ? [] : Array.isArray(v) ? (v as XmlObject[]) : [v as XmlObject];

function rectOf(bounds: unknown): MobileMcpElement['rect'] {
  const m = String(bounds).match(/^\[(\d+),(\d+)\]\[(\d+),(\d+)\]$/);
  if (!m) return { x: Number.NaN, y: Number.NaN, width: Number.NaN, height: Number.NaN };
  const [l, t, r, b] = m.slice(1).map(Number) as [number, number, number, number];
  return { x: l, y: t, width: r - l, height: b - t };
}

const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/**
 * `xml` must be in uiautomator shape (`<node>` elements).
 * The published code hands `hierarchy.node` to its walker as is: when a dump has several top-level
 * windows, fast-xml-parser makes that an array, the walker finds neither `node` nor `text` on it, and the
 * list comes back empty. `faithful` keeps that behaviour (what a model really gets); `false` walks each
 * window, for reference.
 */
export function mobileMcpElements(xml: string, faithful = true): MobileMcpElement[] {
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as XmlObject;
  const hierarchy = parsed['hierarchy'] as XmlObject | undefined;
  if (!hierarchy) return [];
  let counter = 0;
  const visit = (node: XmlObject): MobileMcpElement[] => {
    const order = counter++;
    const out: MobileMcpElement[] = [];
    for (const child of asArray(node['node'])) out.push(...visit(child));
    const text = str(node['text']);
    const desc = str(node['content-desc']);
    const hint = str(node['hint']);
    const rid = str(node['resource-id']);
    if (text || desc || hint || rid || node['checkable'] === 'true') {
      const rect = rectOf(node['bounds']);
      if (rect.width > 0 && rect.height > 0) {
        out.push({
          order,
          type: str(node['class']) || 'text',
          text,
          label: desc || hint || '',
          rect,
          ...(node['focused'] === 'true' ? { focused: true as const } : {}),
          ...(rid !== undefined && rid !== '' ? { identifier: rid } : {}),
        });
      }
    }
    return out;
  };
  const roots = asArray(hierarchy['node']);
  if (faithful && roots.length > 1) return [];
  return roots.flatMap((r) => visit(r));
}

export function formatMobileMcpJson(elements: readonly MobileMcpElement[]): string {
  const rows = elements.map((e) => ({
    type: e.type,
    text: e.text,
    label: e.label,
    identifier: e.identifier,
    coordinates: { x: e.rect.x, y: e.rect.y, width: e.rect.width, height: e.rect.height },
    ...(e.focused ? { focused: true } : {}),
  }));
  return `Found these elements on screen: ${JSON.stringify(rows)}`;
}

/** The text format's header line is part of what the model reads; its wording is a fact of the format. */
const TEXT_HEADER =
  'One element per line: @ref Type text= label= name= value= id= at=x,y size=WxH [focused] [selected] [checked] [disabled]';

export function formatMobileMcpText(elements: readonly MobileMcpElement[]): string {
  const lines = elements.map((e) => {
    const parts = [e.type.slice(e.type.lastIndexOf('.') + 1)];
    if (e.text) parts.push(`text=${JSON.stringify(e.text)}`);
    if (e.label) parts.push(`label=${JSON.stringify(e.label)}`);
    if (e.identifier) parts.push(`id=${JSON.stringify(e.identifier)}`);
    parts.push(`at=${e.rect.x},${e.rect.y}`, `size=${e.rect.width}x${e.rect.height}`);
    if (e.focused) parts.push('focused');
    return parts.join(' ');
  });
  return [TEXT_HEADER, ...lines].join('\n');
}
