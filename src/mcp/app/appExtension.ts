/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865, stable 2026-01-26): whether the
 * client asked for it. A host that renders apps says so in its capabilities, at `initialize`
 * (2025-era) or in each request's envelope (2026-07-28):
 * `capabilities.extensions["io.modelcontextprotocol/ui"].mimeTypes` holds `text/html;profile=mcp-app`.
 * Anything else, or nothing, is a client without apps: its answers stay exactly what they were.
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { z } from 'zod';

export { EXTENSION_ID as APPS_EXTENSION_ID, RESOURCE_MIME_TYPE as APP_MIME_TYPE };

/** The deprecated flat key older hosts still read beside `_meta.ui.resourceUri` (the SDK's registerAppTool sets both). */
export const LEGACY_RESOURCE_URI_KEY = RESOURCE_URI_META_KEY;

const uiCapabilitySchema = z.looseObject({
  extensions: z.looseObject({
    [EXTENSION_ID]: z.looseObject({ mimeTypes: z.array(z.string()) }),
  }),
});

/** True when the client's capabilities negotiate MCP Apps with the HTML profile this server serves. */
export function appsNegotiated(capabilities: unknown): boolean {
  const parsed = uiCapabilitySchema.safeParse(capabilities);
  return parsed.success && parsed.data.extensions[EXTENSION_ID].mimeTypes.includes(RESOURCE_MIME_TYPE);
}
