/**
 * What the automation endpoint (APPIUM_URL) says about itself in GET /status. It is either
 * Appium, or a Selenium Grid 4 (hub or standalone) whose relay nodes forward every WebDriver
 * request to Appium servers: actions work the same through both, but only Appium reports its
 * own build version, and only a Grid has nodes that may be busy, down or absent.
 */

export interface AppiumEndpointStatus {
  readonly kind: 'appium';
  /** Appium's build version (`value.build.version`). */
  readonly version: string;
  readonly ready: boolean;
}

export interface GridNodeCounts {
  /** Nodes the hub knows of, whatever their state. */
  readonly total: number;
  /** Nodes whose availability is UP (not DOWN or DRAINING). */
  readonly up: number;
  /** UP nodes with a free slot and room under their session limit: a new session can start there now. */
  readonly available: number;
}

export interface SeleniumGridEndpointStatus {
  readonly kind: 'selenium-grid';
  /**
   * The Appium version behind the Grid, or null: a Grid does not relay Appium's /status, so it is
   * known only when every slot's stereotype declares `appium:appiumVersion` and they all agree.
   */
  readonly version: string | null;
  /** The hub's own verdict: true when some node is UP with capacity. */
  readonly ready: boolean;
  readonly message: string;
  /** The Selenium version the nodes report (null when there is no node, or they differ). */
  readonly gridVersion: string | null;
  /** Null when the hub answered without its node list (its distributor could not be read). */
  readonly nodes: GridNodeCounts | null;
  /** Sessions the Grid's slots hold right now; null with `nodes`. */
  readonly sessions: number | null;
}

export type AutomationEndpointStatus = AppiumEndpointStatus | SeleniumGridEndpointStatus;

/** One node as the hub lists it, reduced to what the counts need. */
export interface GridNodeFacts {
  readonly availability: string;
  readonly maxSessions: number;
  readonly version: string | null;
  readonly slots: readonly { readonly busy: boolean; readonly appiumVersion: string | null }[];
}

/** The one value every entry states, or null (no entry, one that states nothing, or two that differ). */
function agreed(values: readonly (string | null)[]): string | null {
  const [first = null, ...rest] = values;
  return first !== null && rest.every((value) => value === first) ? first : null;
}

/**
 * The counts the hub's /status implies, by Selenium's own rules (GridStatusHandler,
 * NodeStatus.hasCapacity): a node takes a new session when it is UP and fewer of its slots hold
 * a session than its maxSessions; here it must also have a free slot, since a slot is one session.
 */
export function gridStatusOf(
  ready: boolean,
  message: string,
  nodes: readonly GridNodeFacts[] | null,
): SeleniumGridEndpointStatus {
  if (nodes === null) {
    return { kind: 'selenium-grid', version: null, ready, message, gridVersion: null, nodes: null, sessions: null };
  }
  const up = nodes.filter((node) => node.availability === 'UP');
  const available = up.filter((node) => {
    const busy = node.slots.filter((slot) => slot.busy).length;
    return busy < node.maxSessions && busy < node.slots.length;
  });
  return {
    kind: 'selenium-grid',
    version: agreed(nodes.flatMap((node) => node.slots.map((slot) => slot.appiumVersion))),
    ready,
    message,
    gridVersion: agreed(nodes.map((node) => node.version)),
    nodes: { total: nodes.length, up: up.length, available: available.length },
    sessions: nodes.reduce((sum, node) => sum + node.slots.filter((slot) => slot.busy).length, 0),
  };
}
