import type { ServerResponse } from 'node:http';
import { HarnessError } from '../domain/errors.js';
import { ARTIFACT_SCHEME, loadArtifact, type ArtifactReader } from '../mcp/artifactResource.js';
import { STATUS_BY_ERROR_CODE } from './httpStatus.js';
import { sendJson } from './sendJson.js';

/**
 * `GET /artifacts/{id}`: the PNG, read by the very code that serves `artifact://{id}`, with its
 * protections: the raw path segment (never URL-decoded, never normalised) must already be an id
 * the writer issues, and only a regular file directly inside the evidence directory is read.
 * A refused id is 400 INVALID_ARGUMENT, an unknown one 404 ARTIFACT_NOT_FOUND, each with the
 * resource's own message (without the code in front: here it has its own field).
 */
export async function sendArtifact(reader: ArtifactReader, rawId: string, res: ServerResponse): Promise<void> {
  try {
    const { bytes } = await loadArtifact(reader, `${ARTIFACT_SCHEME}${rawId}`);
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-length': bytes.length,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(bytes);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    sendJson(res, STATUS_BY_ERROR_CODE[error.code], { ok: false, error: { code: error.code, message: error.message } });
  }
}
