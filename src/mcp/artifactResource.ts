import { ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { isArtifactId } from '../domain/evidenceName.js';

export const ARTIFACT_SCHEME = 'artifact://';
/** JSON-RPC code the MCP specification gives "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

export const ARTIFACT_TEMPLATE: ResourceTemplate = {
  uriTemplate: 'artifact://{artifact_id}',
  name: 'evidence',
  title: 'Evidence screenshot',
  description: 'A PNG the harness saved as evidence; the id is `evidence.artifact_id` of a tool answer.',
  mimeType: 'image/png',
};

/** What the resource needs from the evidence writer. */
export interface ArtifactReader {
  read(artifactId: string): Promise<Buffer | null>;
  recentIds(): readonly string[];
}

/**
 * The artifact id in `uri`, or null. No decoding, no normalisation: the text after the
 * scheme must already be exactly an id the writer issues, so `%2e%2e`, `../`, `/etc/passwd`
 * and `x.png/../../LICENSE` never reach the file system.
 */
export function artifactIdFromUri(uri: unknown): string | null {
  if (typeof uri !== 'string' || !uri.startsWith(ARTIFACT_SCHEME)) return null;
  const id = uri.slice(ARTIFACT_SCHEME.length);
  return isArtifactId(id) ? id : null;
}

export async function readArtifact(reader: ArtifactReader, uri: unknown): Promise<ReadResourceResult> {
  const id = artifactIdFromUri(uri);
  if (id === null) {
    throw new McpError(
      ErrorCode.InvalidParams,
      'EVIDENCE_WRITE_FAILED: not an artifact uri. Use the `evidence.uri` of a tool answer (artifact://YYYYMMDD-HHMMSS-NNNNNN-label.png).',
    );
  }
  const bytes = await reader.read(id);
  if (bytes === null) {
    throw new McpError(RESOURCE_NOT_FOUND, 'EVIDENCE_WRITE_FAILED: no such artifact in artifacts/. Take a new one with screen_capture.');
  }
  return { contents: [{ uri: `${ARTIFACT_SCHEME}${id}`, mimeType: 'image/png', blob: bytes.toString('base64') }] };
}

export function listArtifacts(reader: ArtifactReader): Resource[] {
  return reader.recentIds().map((id) => ({ uri: `${ARTIFACT_SCHEME}${id}`, name: id, mimeType: 'image/png' }));
}
