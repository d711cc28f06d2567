/** Gives every node a key unique within its screen and indexes screens and nodes for the runtime. */
import type { NodeSpec, ScenarioSpec, ScreenSpec } from './model.js';

export interface NormalizedScreen {
  readonly spec: ScreenSpec;
  readonly root: NodeSpec;
  readonly nodesByKey: ReadonlyMap<string, NodeSpec>;
}

export interface NormalizedScenario {
  readonly spec: ScenarioSpec;
  readonly screens: ReadonlyMap<string, NormalizedScreen>;
}

function assignKeys(node: NodeSpec, path: string, seen: Map<string, NodeSpec>, screenId: string): NodeSpec {
  const key = node.key ?? `n${path}`;
  if (seen.has(key))
    throw new Error(`Screen '${screenId}' has two nodes with key '${key}'; keys must be unique within a screen.`);
  const children = node.children?.map((child, i) => assignKeys(child, `${path}.${i}`, seen, screenId));
  const keyed: NodeSpec = children ? { ...node, key, children } : { ...node, key };
  seen.set(key, keyed);
  return keyed;
}

export function normalizeScreen(spec: ScreenSpec): NormalizedScreen {
  const nodesByKey = new Map<string, NodeSpec>();
  const root = assignKeys(spec.root, '0', nodesByKey, spec.id);
  return { spec, root, nodesByKey };
}

export function normalizeScenario(spec: ScenarioSpec): NormalizedScenario {
  const screens = new Map<string, NormalizedScreen>();
  for (const screen of spec.screens) {
    if (screens.has(screen.id)) throw new Error(`Scenario '${spec.name}' defines screen '${screen.id}' twice.`);
    screens.set(screen.id, normalizeScreen(screen));
  }
  const referenced = [spec.home, spec.start ?? spec.home, ...Object.values(spec.intents ?? {})];
  for (const pkg of spec.packages) {
    if (pkg.launcher && pkg.launcher.screen !== '') referenced.push(pkg.launcher.screen);
    referenced.push(...Object.values(pkg.activities ?? {}));
  }
  for (const id of referenced) {
    if (!screens.has(id))
      throw new Error(`Scenario '${spec.name}' refers to screen '${id}', which it does not define.`);
  }
  return { spec, screens };
}
