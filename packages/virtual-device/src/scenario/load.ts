/**
 * Scenario files (`--scenario FILE`): the ScenarioSpec shape as JSON. A screen gives either
 * `root` (a node tree) or `xml`/`xmlFile` (a uiautomator dump or page source, relative to the
 * file) plus `rules` that attach actions to nodes found by text, resource-id or content-desc.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Action, NodeSpec, ScenarioSpec, ScreenSpec } from './model.js';
import { importHierarchyXml } from './xmlImport.js';

const actionSchema: z.ZodType<Action> = z.union([
  z
    .object({
      type: z.literal('goto'),
      screen: z.string(),
      params: z.record(z.string(), z.string()).optional(),
      replace: z.boolean().optional(),
    })
    .strict(),
  z.object({ type: z.literal('back') }).strict(),
  z.object({ type: z.literal('home') }).strict(),
  z.object({ type: z.literal('launch'), package: z.string() }).strict(),
  z.object({ type: z.literal('toggle'), node: z.string().optional() }).strict(),
  z.object({ type: z.literal('focus'), node: z.string().optional() }).strict(),
  z.object({ type: z.literal('setText'), node: z.string(), template: z.string() }).strict(),
  z.object({ type: z.literal('hideKeyboard') }).strict(),
  z
    .object({
      type: z.literal('log'),
      priority: z.enum(['V', 'D', 'I', 'W', 'E', 'F']),
      tag: z.string().min(1).max(64),
      message: z.string(),
    })
    .strict(),
  z
    .object({
      type: z.literal('crash'),
      exception: z.string().min(1),
      message: z.string().optional(),
      frames: z.array(z.string()),
    })
    .strict(),
]) as z.ZodType<Action>;

const boundsSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

const nodeSchema: z.ZodType<NodeSpec> = z.lazy(() =>
  z
    .object({
      key: z.string().optional(),
      class: z.string(),
      text: z.string().optional(),
      resourceId: z.string().optional(),
      contentDesc: z.string().optional(),
      hint: z.string().optional(),
      package: z.string().optional(),
      bounds: boundsSchema,
      checkable: z.boolean().optional(),
      checked: z.boolean().optional(),
      clickable: z.boolean().optional(),
      enabled: z.boolean().optional(),
      focusable: z.boolean().optional(),
      focused: z.boolean().optional(),
      scrollable: z.boolean().optional(),
      orientation: z.enum(['vertical', 'horizontal']).optional(),
      longClickable: z.boolean().optional(),
      password: z.boolean().optional(),
      selected: z.boolean().optional(),
      setTextNeedsFocus: z.boolean().optional(),
      onClick: z.array(actionSchema).optional(),
      onLongClick: z.array(actionSchema).optional(),
      children: z.array(nodeSchema).optional(),
      filterBy: z.string().optional(),
      drawn: z
        .array(
          z
            .object({
              text: z.string(),
              bounds: boundsSchema,
              onClick: z.array(actionSchema).optional(),
              style: z.enum(['button', 'text', 'link']).optional(),
            })
            .strict(),
        )
        .optional(),
    })
    .strict(),
) as z.ZodType<NodeSpec>;

const ruleSchema = z
  .object({
    match: z
      .object({ text: z.string().optional(), resourceId: z.string().optional(), contentDesc: z.string().optional() })
      .strict(),
    onClick: z.array(actionSchema),
  })
  .strict();

const screenSchema = z
  .object({
    id: z.string().min(1),
    package: z.string().optional(),
    activity: z.string(),
    root: nodeSchema.optional(),
    xml: z.string().optional(),
    xmlFile: z.string().optional(),
    rules: z.array(ruleSchema).optional(),
    onBack: z.array(actionSchema).optional(),
    systemWindow: z.literal('NotificationShade').optional(),
    focusOnOpen: z.string().optional(),
    static: z.boolean().optional(),
    secure: z.boolean().optional(),
  })
  .strict();

const packageSchema = z
  .object({
    name: z.string(),
    label: z.string().optional(),
    launcher: z.object({ activity: z.string(), screen: z.string() }).strict().optional(),
    activities: z.record(z.string(), z.string()).optional(),
    links: z
      .array(z.object({ scheme: z.string(), host: z.string().optional(), activity: z.string() }).strict())
      .optional(),
    thirdParty: z.boolean().optional(),
    versionCode: z.number().int().optional(),
    versionName: z.string().optional(),
  })
  .strict();

export const scenarioFileSchema = z
  .object({
    name: z.string(),
    home: z.string(),
    start: z.string().optional(),
    packages: z.array(packageSchema),
    screens: z.array(screenSchema),
    intents: z.record(z.string(), z.string()).optional(),
  })
  .strict();

type Rule = z.infer<typeof ruleSchema>;

function applyRules(node: NodeSpec, rules: readonly Rule[]): NodeSpec {
  const rule = rules.find(
    (r) =>
      (r.match.text === undefined || r.match.text === node.text) &&
      (r.match.resourceId === undefined || r.match.resourceId === node.resourceId) &&
      (r.match.contentDesc === undefined || r.match.contentDesc === node.contentDesc) &&
      (r.match.text !== undefined || r.match.resourceId !== undefined || r.match.contentDesc !== undefined),
  );
  const children = node.children?.map((c) => applyRules(c, rules));
  return { ...node, ...(children ? { children } : {}), ...(rule ? { onClick: rule.onClick } : {}) };
}

export function parseScenario(json: unknown, baseDir: string): ScenarioSpec {
  const parsed = scenarioFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `The scenario file is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'unknown problem'}`,
    );
  }
  const file = parsed.data;
  const screens: ScreenSpec[] = file.screens.map((s) => {
    let root = s.root;
    let pkg = s.package;
    const xml = s.xml ?? (s.xmlFile !== undefined ? readFileSync(path.resolve(baseDir, s.xmlFile), 'utf8') : undefined);
    if (xml !== undefined) {
      const imported = importHierarchyXml(xml);
      root = imported.root;
      pkg ??= imported.package;
    }
    if (!root) throw new Error(`Screen '${s.id}' needs a root, xml or xmlFile.`);
    if (!pkg) throw new Error(`Screen '${s.id}' needs a package.`);
    if (s.rules) root = applyRules(root, s.rules);
    return {
      id: s.id,
      package: pkg,
      activity: s.activity,
      root,
      ...(s.onBack ? { onBack: s.onBack } : {}),
      ...(s.focusOnOpen !== undefined ? { focusOnOpen: s.focusOnOpen } : {}),
      ...(s.static !== undefined ? { static: s.static } : {}),
      ...(s.secure !== undefined ? { secure: s.secure } : {}),
    };
  });
  return {
    name: file.name,
    home: file.home,
    ...(file.start !== undefined ? { start: file.start } : {}),
    packages: file.packages,
    screens,
    ...(file.intents ? { intents: file.intents } : {}),
  };
}

export function loadScenarioFile(file: string): ScenarioSpec {
  const full = path.resolve(file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(full, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot read the scenario file ${path.basename(full)}: ${(e as Error).message}`, { cause: e });
  }
  return parseScenario(json, path.dirname(full));
}
