/**
 * Reads the body of GET /status from APPIUM_URL: Appium's (`value.build.version`) or a Selenium
 * Grid 4 hub's. The Grid's shape is Selenium's GridStatusHandler: `value.ready`, `value.message`
 * and `value.nodes[]`, each node with `availability` (UP, DRAINING, DOWN), `maxSessions`,
 * `version` and `slots[]` whose `session` is null when free and whose `stereotype` is the
 * relay's configured capabilities. When the hub cannot read its distributor within 2 s it
 * answers `{ready: false, message}` with no `nodes` at all.
 */
import { z } from 'zod';
import { gridStatusOf, type AutomationEndpointStatus, type GridNodeFacts } from '../../domain/automationEndpoint.js';

const AppiumStatusBody = z.object({
  value: z.object({
    ready: z.boolean().optional(),
    build: z.object({ version: z.string().min(1) }),
  }),
});

const GridSlot = z.object({
  session: z.unknown().optional(),
  stereotype: z.record(z.string(), z.unknown()).optional(),
});

const GridNode = z.object({
  availability: z.string(),
  maxSessions: z.number().int().nonnegative(),
  version: z.string().optional(),
  slots: z.array(GridSlot),
});

const GridStatusBody = z.object({
  value: z.object({
    ready: z.boolean(),
    message: z.string(),
    nodes: z.array(GridNode),
  }),
});

/** The hub's two answers when its distributor did not report in time (GridStatusHandler). */
const GridWithoutDistributor = z.object({
  value: z.object({
    ready: z.literal(false),
    message: z.string().regex(/distributor status/i),
  }),
});

function nodeFacts(node: z.infer<typeof GridNode>): GridNodeFacts {
  return {
    availability: node.availability,
    maxSessions: node.maxSessions,
    // "4.48.0 (revision 27f5213 …)": the release is what a reader needs.
    version: node.version?.split(' ')[0] || null,
    slots: node.slots.map((slot) => {
      const declared = slot.stereotype?.['appium:appiumVersion'];
      return {
        busy: slot.session !== null && slot.session !== undefined,
        appiumVersion: typeof declared === 'string' && declared.length > 0 ? declared : null,
      };
    }),
  };
}

/** What the body says the endpoint is, or null when it is neither Appium nor a Selenium Grid. */
export function parseEndpointStatus(body: unknown): AutomationEndpointStatus | null {
  const appium = AppiumStatusBody.safeParse(body);
  if (appium.success)
    return { kind: 'appium', version: appium.data.value.build.version, ready: appium.data.value.ready ?? true };
  const grid = GridStatusBody.safeParse(body);
  if (grid.success)
    return gridStatusOf(grid.data.value.ready, grid.data.value.message, grid.data.value.nodes.map(nodeFacts));
  const blind = GridWithoutDistributor.safeParse(body);
  if (blind.success) return gridStatusOf(false, blind.data.value.message, null);
  return null;
}
