import { z } from 'zod';
import { parseLinkUri } from '../../../domain/links/linkUri.js';
import { argument, observeArgument, optionalPackageArgument, sessionIdArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const appOpenLinkTool = defineTool({
  name: 'app_open_link',
  toolset: 'apps',
  title: 'Open a link',
  description:
    'Opens a deep link or URL (ASCII, lower-case scheme, other characters percent-encoded) in the app that takes it: {handled_by, foreground_package, after} + evidence.',
  annotations: actor(false),
  answer:
    '`{handled_by, foreground_package, after}` (+ `foreground_settled: false` when it had not settled); evidence `app-open-link`',
  arguments: {
    url: argument(z.string().describe('e.g. myapp://orders/42'), parseLinkUri),
    package_name: optionalPackageArgument(
      z.string().optional().describe('The app to open it in; default: Android chooses'),
    ),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.links.open(context, input.url, input.package_name, input.session_id, input.observe),
});
