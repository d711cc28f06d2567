/**
 * The thread that draws the device's captures (captureThread.ts starts it). It gets the snapshot of
 * what a capture shows, taken by the device when the capture ran, draws and encodes it, and sends
 * the PNG back. It holds no device state: the same snapshot gives the same bytes as a render in the
 * device's own thread.
 */
import { parentPort } from 'node:worker_threads';
import { renderScreenshotFrame, type ScreenshotState } from './screenshot.js';

export interface CaptureRequest {
  readonly id: number;
  readonly state: ScreenshotState;
}

export type CaptureReply =
  | {
      readonly id: number;
      readonly png: Uint8Array;
      /** The pixels the PNG was encoded from, for a raw `screencap` (null: decode the PNG). */
      readonly rgba: Uint8Array | null;
      readonly width: number;
      readonly height: number;
    }
  | { readonly id: number; readonly error: string };

const port = parentPort;
if (port) {
  port.on('message', (request: CaptureRequest) => {
    let reply: CaptureReply;
    try {
      // Copied, not transferred: the renderer keeps some PNGs (a blank display's) for the next capture.
      const frame = renderScreenshotFrame(request.state);
      reply = { id: request.id, png: frame.png, rgba: frame.rgba, width: frame.width, height: frame.height };
    } catch (error) {
      reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}
