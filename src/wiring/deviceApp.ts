/**
 * The device app (MCP Apps) of one server process: its state reads the evidence the calls wrote,
 * and its trace viewer is the page `trace view` writes, made from the session's trace as it stands.
 */
import path from 'node:path';
import type { Traces } from '../application/trace/Traces.js';
import type { ImageTools } from '../domain/ports.js';
import type { ArtifactReader } from '../mcp/artifactResource.js';
import { DeviceApp } from '../mcp/app/DeviceApp.js';
import type { HarnessMcpServerOptions } from '../mcp/HarnessMcpServer.js';
import { readTrace } from '../trace/readTrace.js';
import { viewerHtml } from '../trace/viewer.js';

export function createDeviceApp(
  artifacts: ArtifactReader,
  images: ImageTools,
  traces: Traces,
  tracesDir: string,
): NonNullable<HarnessMcpServerOptions['app']> {
  return {
    state: new DeviceApp({ artifacts, images, traceAvailable: () => traces.enabled }),
    traceViewer: () => {
      const name = traces.sessionName;
      return name === null ? null : viewerHtml(readTrace(path.join(tracesDir, name)));
    },
  };
}
