import { z } from 'zod';
import type { HarnessServices } from '../../../application/HarnessServices.js';
import { parseLinkUri } from '../../../domain/links/linkUri.js';
import { parsePackageName } from '../../../domain/validation.js';
import { observeFlag, optionalSessionId } from '../../arguments.js';
import { observeSchema, sessionIdSchema } from '../../schemas.js';
import { actor, type ToolDefinition } from '../../ToolDefinition.js';

export function appOpenLinkTool(services: HarnessServices): ToolDefinition {
  return {
    name: 'app_open_link',
    toolset: 'apps',
    title: 'Open a link',
    description:
      'Opens a deep link or URL (ASCII, lower-case scheme, other characters percent-encoded) in the app that takes it: {handled_by, foreground_package, after} + evidence.',
    inputSchema: z.object({
      url: z.string().describe('e.g. myapp://orders/42'),
      package_name: z.string().optional(),
      observe: observeSchema,
      session_id: sessionIdSchema,
    }),
    annotations: actor(false),
    execute: (args, context) => {
      const uri = parseLinkUri(args.url);
      const pkg =
        args.package_name === undefined || args.package_name === null ? null : parsePackageName(args.package_name);
      return services.links.open(context, uri, pkg, optionalSessionId(args), observeFlag(args));
    },
  };
}
