import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { OperationResult } from '../application/OperationRunner.js';

/**
 * The envelope (docs/reference/contract.md, "The envelope") as `structuredContent` and, for clients that only read
 * text, the same object as compact JSON in one text block (every byte costs tokens).
 * screen_capture adds its scaled picture as an image block.
 */
export function presentResult(result: OperationResult): CallToolResult {
  const { envelope, image } = result;
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(envelope) }];
  if (image) content.push({ type: 'image', data: image.toString('base64'), mimeType: 'image/png' });
  return {
    content,
    structuredContent: envelope as unknown as Record<string, unknown>,
    ...(envelope.ok ? {} : { isError: true }),
  };
}
