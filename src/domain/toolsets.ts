/**
 * Toolsets: the twelve tools of the contract are `core` and always on; every other
 * capability is a named set the user switches on (ANDROID_MCP_TOOLSETS, `--toolsets`), so the
 * default catalogue a model pays for stays the twelve.
 */
export const TOOLSET_NAMES = ['core', 'apps', 'device', 'wait', 'diagnostics'] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** Names the user may write: the sets and `all`. */
export const TOOLSET_CHOICES: readonly string[] = Object.freeze([...TOOLSET_NAMES, 'all']);

export const DEFAULT_TOOLSETS: readonly ToolsetName[] = Object.freeze(['core']);

/** A start-up error: the server refuses to start rather than serve a catalogue the user did not ask for. */
export class ToolsetsError extends Error {
  override readonly name = 'ToolsetsError';
}

function isToolsetName(name: string): name is ToolsetName {
  return (TOOLSET_NAMES as readonly string[]).includes(name);
}

/**
 * Parses a comma-separated list (`device,wait`, `all`); blank means the default. `core` is
 * always added; order and repeats do not matter (the result follows TOOLSET_NAMES).
 * Throws ToolsetsError naming the valid choices for an unknown name.
 */
export function parseToolsets(raw: string | undefined, source: string): readonly ToolsetName[] {
  const names = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  const unknown = names.filter((n) => n !== 'all' && !isToolsetName(n));
  if (unknown.length > 0) {
    const shown = unknown.map((n) => JSON.stringify(n.slice(0, 40))).join(', ');
    throw new ToolsetsError(
      `${source}: unknown toolset ${shown}. The toolsets are: ${TOOLSET_CHOICES.join(', ')} (comma-separated; core is always on).`,
    );
  }
  const wanted = new Set<string>(names.includes('all') ? TOOLSET_NAMES : ['core', ...names]);
  return Object.freeze(TOOLSET_NAMES.filter((n) => wanted.has(n)));
}
