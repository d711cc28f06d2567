/** Test-only: small hand-written dumps in either shape, so each oracle states its screen inline. */
export interface NodeSpec {
  cls?: string;
  pkg?: string;
  id?: string;
  text?: string;
  desc?: string;
  hint?: string;
  bounds?: string | null;
  clickable?: boolean;
  longClickable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  scrollable?: boolean;
  enabled?: boolean;
  password?: boolean;
  /** UiAutomator2's `showing-hint`; written only when given (`uiautomator dump` has no such attribute). */
  showingHint?: boolean;
  children?: NodeSpec[];
}

export function escapeAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function attrs(spec: NodeSpec, withClassAttr: boolean): string {
  const parts: [string, string][] = [
    ['text', spec.text ?? ''],
    ['resource-id', spec.id ?? ''],
    ...(withClassAttr ? [['class', spec.cls ?? 'android.view.View'] as [string, string]] : []),
    ['package', spec.pkg ?? 'com.example.app'],
    ['content-desc', spec.desc ?? ''],
    ['checkable', String(spec.checkable ?? false)],
    ['checked', String(spec.checked ?? false)],
    ['clickable', String(spec.clickable ?? false)],
    ['enabled', String(spec.enabled ?? true)],
    ['scrollable', String(spec.scrollable ?? false)],
    ['long-clickable', String(spec.longClickable ?? false)],
    ['hint', spec.hint ?? ''],
    ['password', String(spec.password ?? false)],
  ];
  if (spec.showingHint !== undefined) parts.push(['showing-hint', String(spec.showingHint)]);
  if (spec.bounds !== null) parts.push(['bounds', spec.bounds ?? '[0,0][1080,2400]']);
  return parts.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(' ');
}

export function uiautomatorNode(spec: NodeSpec): string {
  const children = (spec.children ?? []).map(uiautomatorNode).join('');
  return children ? `<node ${attrs(spec, true)}>${children}</node>` : `<node ${attrs(spec, true)} />`;
}

/** uiautomator shape: `<hierarchy rotation=…><node …>`. */
export function uiautomatorDump(roots: NodeSpec[], rotation = 0): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">${roots.map(uiautomatorNode).join('')}</hierarchy>`;
}

function appiumNode(spec: NodeSpec, withClassAttr: boolean): string {
  const tag = spec.cls ?? 'android.view.View';
  const children = (spec.children ?? []).map((c) => appiumNode(c, withClassAttr)).join('\n');
  return children
    ? `<${tag} index="0" ${attrs(spec, withClassAttr)} displayed="true">\n${children}\n</${tag}>`
    : `<${tag} index="0" ${attrs(spec, withClassAttr)} displayed="true" />`;
}

/** Appium page-source shape: class-named tags, `<hierarchy … width= height=>`. */
export function appiumSource(roots: NodeSpec[], size = { width: 1080, height: 2400 }, withClassAttr = true): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<hierarchy index="0" class="hierarchy" rotation="0" width="${size.width}" height="${size.height}">\n${roots.map((r) => appiumNode(r, withClassAttr)).join('\n')}\n</hierarchy>`;
}

/** A full-screen root holding `children`. */
export function screen(children: NodeSpec[], bounds = '[0,0][1080,2400]'): NodeSpec {
  return { cls: 'android.widget.FrameLayout', bounds, children };
}
