/**
 * A UiAutomator2 session and the element ids it hands out. An id stands for one node of one
 * screen: once the foreground changes (the UI's generation), the id is stale, as the real
 * server's cached AccessibilityNodeInfo is.
 */
import { randomUUID } from 'node:crypto';
import type { DeviceUi } from '../device/ui.js';
import { flatten, type UiElement } from '../device/uiTree.js';
import { HttpError } from './errors.js';

export const W3C_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export type Json = Record<string, unknown>;

export interface Session {
  readonly id: string;
  readonly capabilities: Record<string, unknown>;
  readonly elements: Map<string, { generation: number; key: string }>;
  readonly idsByNode: Map<string, string>;
}

export function newSession(capabilities: Json): Session {
  return { id: randomUUID(), capabilities, elements: new Map(), idsByNode: new Map() };
}

/** The element id a W3C origin or element reference names (`element-6066-…` or the legacy `ELEMENT`). */
export function referencedId(ref: Json): string {
  return String(ref[W3C_ELEMENT] ?? ref.ELEMENT ?? '');
}

/** The session's id for a node of the current screen (the same id each time it is found). */
export function elementRef(session: Session, ui: DeviceUi, e: UiElement): Json {
  const nodeKey = `${ui.generation}:${e.key}`;
  let id = session.idsByNode.get(nodeKey);
  if (!id) {
    id = randomUUID();
    session.idsByNode.set(nodeKey, id);
    session.elements.set(id, { generation: ui.generation, key: e.key });
  }
  return { ELEMENT: id, [W3C_ELEMENT]: id };
}

/** The node an id stands for, or `no such element` / `stale element reference`. */
export function cachedElement(session: Session, ui: DeviceUi, id: string): UiElement {
  const known = session.elements.get(id);
  if (!known) throw new HttpError(404, 'no such element', `The element identified by '${id}' is unknown`);
  const stale = (): HttpError =>
    new HttpError(404, 'stale element reference', `The element '${id}' does not exist in DOM anymore`);
  if (known.generation !== ui.generation) throw stale();
  const e = flatten(ui.tree()).find((n) => n.key === known.key);
  if (!e) throw stale();
  return e;
}
