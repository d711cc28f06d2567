import type { IncomingMessage } from 'node:http';

/** A body over the bound: HttpServer answers 413 and discards the rest of what the client sends. */
export class BodyTooLarge extends Error {}

/**
 * The request body, at most `maxBytes`. HttpServer already refused a Content-Length over the
 * bound; this stops a chunked body at the bound too, without buffering the rest.
 *
 * Listeners, not `for await`: leaving an async iteration early destroys the stream, and with it the
 * socket, while the client may still be sending; Node's fetch then reports EPIPE instead of the 413.
 * Here the request stays open, so HttpServer can answer and drain it.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      // Paused, not destroyed: the refusal resumes it to discard the rest.
      req.pause();
      reject(new BodyTooLarge(`bodies are limited to ${maxBytes} bytes`));
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
