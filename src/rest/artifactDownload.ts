import type { ServerResponse } from 'node:http';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ARTIFACT_SCHEME, RESOURCE_NOT_FOUND, readArtifact, type ArtifactReader } from '../mcp/artifactResource.js';
import { sendJson } from './sendJson.js';

/**
 * `GET /artifacts/{id}`: the PNG, read by the very code that serves `artifact://{id}`, with its
 * protections: the raw path segment (never URL-decoded, never normalised) must already be an id
 * the writer issues, and only a regular file directly inside the evidence directory is read.
 * A refused id is 400, an unknown one 404, each with the resource's own message.
 */
export async function sendArtifact(reader: ArtifactReader, rawId: string, res: ServerResponse): Promise<void> {
  try {
    const result = await readArtifact(reader, `${ARTIFACT_SCHEME}${rawId}`);
    const content = result.contents[0];
    const bytes = Buffer.from(content && 'blob' in content ? content.blob : '', 'base64');
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': bytes.length, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(bytes);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    const status = error.code === RESOURCE_NOT_FOUND ? 404 : 400;
    sendJson(res, status, { ok: false, error: { code: 'EVIDENCE_WRITE_FAILED', message: error.message } });
  }
}
