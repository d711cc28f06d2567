import type { IncomingMessage } from 'node:http';

/** A body over the bound: the server answers 413 (HttpServer counts it as refused). */
export class BodyTooLarge extends Error {}

/**
 * The request body, at most `maxBytes`. HttpServer already refused a Content-Length over the
 * bound; this stops a chunked body at the bound too, without buffering the rest.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyTooLarge(`bodies are limited to ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
