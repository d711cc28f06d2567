/**
 * The app's resources: the page (`ui://android-mcp-harness/device`, `text/html;profile=mcp-app`)
 * and the run's trace viewer (`trace://session`, the page `trace view` writes), which the page reads
 * through the host when the person asks for it.
 */
import { ErrorCode, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { protocolError } from '../protocolError.js';
import { APP_MIME_TYPE } from './appExtension.js';
import { DEVICE_APP_URI } from './DeviceApp.js';
import { DEVICE_VIEW_HTML, TRACE_VIEWER_URI } from './deviceView.js';

/**
 * The page's metadata: an empty CSP declares no outside origin (SEP-1865: the host then applies its
 * restrictive default, `connect-src 'none'`, images from data: only), and a border keeps the phone
 * apart from the conversation.
 */
const UI_META = { ui: { csp: {}, prefersBorder: true } } as const;

export const DEVICE_APP_RESOURCE: Resource = {
  uri: DEVICE_APP_URI,
  name: 'device',
  title: 'Android device, live',
  description: 'The screen after each call, the entries by ref, the last steps and the run’s trace viewer.',
  mimeType: APP_MIME_TYPE,
  _meta: UI_META,
};

/** The app's page or the trace viewer for `uri`; null for a uri that is neither. */
export function readAppResource(uri: unknown, traceViewer: () => string | null): ReadResourceResult | null {
  if (uri === DEVICE_APP_URI)
    return { contents: [{ uri: DEVICE_APP_URI, mimeType: APP_MIME_TYPE, text: DEVICE_VIEW_HTML, _meta: UI_META }] };
  if (uri !== TRACE_VIEWER_URI) return null;
  let html: string | null;
  try {
    html = traceViewer();
  } catch {
    // A trace being written is read whole lines at a time; anything else unreadable is said, never a stack.
    throw protocolError(
      ErrorCode.InternalError,
      'The trace of this run could not be read just now. Try again, or run `android-mcp-harness trace view` on its folder.',
    );
  }
  if (html === null)
    throw protocolError(
      ErrorCode.InvalidParams,
      'There is no trace of this run to show: traces are off (ANDROID_MCP_TRACE=off) or no call has been made yet. ' +
        'Make a call first, or turn traces on and restart the server.',
    );
  return { contents: [{ uri: TRACE_VIEWER_URI, mimeType: 'text/html', text: html }] };
}
