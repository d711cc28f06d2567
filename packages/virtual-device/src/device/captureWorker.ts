/**
 * The thread that draws the device's captures (captureThread.ts starts it). It gets the snapshot of
 * what a capture shows, taken by the device when the capture ran, draws and encodes it, and sends
 * the PNG back. It holds no device state: the same snapshot gives the same bytes as a render in the
 * device's own thread.
 */
import { parentPort } from 'node:worker_threads';
import { renderScreenshot, type ScreenshotState } from './screenshot.js';

export interface CaptureRequest {
  readonly id: number;
  readonly state: ScreenshotState;
}

export type CaptureReply =
  { readonly id: number; readonly png: Uint8Array } | { readonly id: number; readonly error: string };

const port = parentPort;
if (port) {
  port.on('message', (request: CaptureRequest) => {
    let reply: CaptureReply;
    try {
      // Copied, not transferred: the renderer keeps some PNGs (a blank display's) for the next capture.
      reply = { id: request.id, png: renderScreenshot(request.state) };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}
