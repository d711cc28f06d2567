/**
 * The two XML shapes Android tooling prints for the same tree: `uiautomator dump`
 * (`<node class="…">`, one line, API 34 attribute order) and the UiAutomator2
 * server's page source (class names as tags, its own attribute order).
 */
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../scenario/model.js';
import { formatBounds, type Rect } from './geometry.js';
import type { UiElement } from './uiTree.js';

/** Escapes as Android's FastXmlSerializer does (newlines and tabs as character references). */
export function escapeXml(value: string): string {
  let out = '';
  for (const ch of value) {
    switch (ch) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '"':
        out += '&quot;';
        break;
      case '\n':
        out += '&#10;';
        break;
      case '\r':
        out += '&#13;';
        break;
      case '\t':
        out += '&#9;';
        break;
      default: {
        const code = ch.codePointAt(0) ?? 0;
        // XML 1.0 cannot carry other control characters; Android drops them too.
        if (code < 0x20) continue;
        out += ch;
      }
    }
  }
  return out;
}

const bool = (b: boolean): string => (b ? 'true' : 'false');

function dumpAttributes(e: UiElement): string {
  const attrs: [string, string][] = [
    ['index', String(e.index)],
    ['text', e.text],
    ['resource-id', e.resourceId],
    ['class', e.className],
    ['package', e.package],
    ['content-desc', e.contentDesc],
    ['checkable', bool(e.checkable)],
    ['checked', bool(e.checked)],
    ['clickable', bool(e.clickable)],
    ['enabled', bool(e.enabled)],
    ['focusable', bool(e.focusable)],
    ['focused', bool(e.focused)],
    ['scrollable', bool(e.scrollable)],
    ['long-clickable', bool(e.longClickable)],
    ['password', bool(e.password)],
    ['selected', bool(e.selected)],
    ['bounds', formatBounds(e.bounds)],
    ['drawing-order', String(e.drawingOrder)],
    ['hint', e.hint],
  ];
  return attrs.map(([k, v]) => `${k}="${escapeXml(v)}"`).join(' ');
}

/** `uiautomator dump` output for API 34: one line, `<node>` elements. */
export function toDumpXml(root: UiElement, rotation = 0): string {
  const parts: string[] = [
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">`,
  ];
  const walk = (e: UiElement): void => {
    if (e.children.length === 0) {
      parts.push(`<node ${dumpAttributes(e)} />`);
      return;
    }
    parts.push(`<node ${dumpAttributes(e)}>`);
    for (const c of e.children) walk(c);
    parts.push('</node>');
  };
  walk(root);
  parts.push('</hierarchy>');
  return parts.join('');
}

/** XML element names cannot hold `$` and friends; UiAutomator2 replaces them the same way. */
export function tagNameFor(className: string): string {
  const cleaned = className.replace(/[^A-Za-z0-9._-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function sourceAttributes(e: UiElement, boundsOf: (e: UiElement) => Rect): string {
  const attrs: [string, string][] = [
    ['index', String(e.index)],
    ['package', e.package],
    ['class', e.className],
    ['text', e.text],
  ];
  if (e.resourceId) attrs.push(['resource-id', e.resourceId]);
  if (e.contentDesc) attrs.push(['content-desc', e.contentDesc]);
  attrs.push(
    ['checkable', bool(e.checkable)],
    ['checked', bool(e.checked)],
    ['clickable', bool(e.clickable)],
    ['enabled', bool(e.enabled)],
    ['focusable', bool(e.focusable)],
    ['focused', bool(e.focused)],
    ['long-clickable', bool(e.longClickable)],
    ['password', bool(e.password)],
    ['scrollable', bool(e.scrollable)],
    ['selected', bool(e.selected)],
    ['bounds', formatBounds(boundsOf(e))],
    ['displayed', 'true'],
    ['hint', e.hint],
    ['drawing-order', String(e.drawingOrder)],
    // UiAutomator2 writes AccessibilityNodeInfo.isShowingHintText for every node; `uiautomator dump` does not.
    ['showing-hint', bool(e.showingHint)],
  );
  return attrs.map(([k, v]) => `${k}="${escapeXml(v)}"`).join(' ');
}

/**
 * UiAutomator2 `GET /source`: indented, class names as tags, inside `<hierarchy … width height>`.
 * `boundsOf` gives each node's bounds as the server reports them (uia2/bounds.ts).
 */
export function toPageSource(
  root: UiElement,
  display: { rotation: number; width: number; height: number } = {
    rotation: 0,
    width: SCREEN_WIDTH,
    height: SCREEN_HEIGHT,
  },
  boundsOf: (e: UiElement) => Rect = (e) => e.bounds,
): string {
  const lines: string[] = [
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>`,
    `<hierarchy index="0" class="hierarchy" rotation="${display.rotation}" width="${display.width}" height="${display.height}">`,
  ];
  const walk = (e: UiElement, depth: number): void => {
    const pad = '  '.repeat(depth);
    const tag = tagNameFor(e.className);
    if (e.children.length === 0) {
      lines.push(`${pad}<${tag} ${sourceAttributes(e, boundsOf)} />`);
      return;
    }
    lines.push(`${pad}<${tag} ${sourceAttributes(e, boundsOf)}>`);
    for (const c of e.children) walk(c, depth + 1);
    lines.push(`${pad}</${tag}>`);
  };
  walk(root, 1);
  lines.push('</hierarchy>');
  return lines.join('\n');
}
