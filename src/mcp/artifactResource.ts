import { ErrorCode, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { isArtifactId } from '../domain/evidenceName.js';
import { protocolError } from './protocolError.js';

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

/**
 * CONTRACT §3 gives a failed artifact read the code EVIDENCE_WRITE_FAILED, so the messages keep it
 * first, and then say at once that this was a read, of an id refused or unknown.
 */
const READ_FAILED = 'EVIDENCE_WRITE_FAILED (a read, nothing was written)';

export async function readArtifact(reader: ArtifactReader, uri: unknown): Promise<ReadResourceResult> {
  const id = artifactIdFromUri(uri);
  if (id === null) {
    // Never quoted back: it may be anything, a host path included.
    throw protocolError(
      ErrorCode.InvalidParams,
      `${READ_FAILED}: refused to read that uri, it is not an artifact id the harness issues. ` +
        'Use the `evidence.uri` of a tool answer exactly as given (artifact://YYYYMMDD-HHMMSS-NNNNNN-label.png).',
    );
  }
  const bytes = await reader.read(id);
  if (bytes === null) {
    throw protocolError(
      RESOURCE_NOT_FOUND,
      `${READ_FAILED}: unknown artifact ${ARTIFACT_SCHEME}${id}: there is no such file in the evidence directory ` +
        '(never written there, or removed). resources/list shows the recent ones; take a new one with screen_capture.',
    );
  }
  return { contents: [{ uri: `${ARTIFACT_SCHEME}${id}`, mimeType: 'image/png', blob: bytes.toString('base64') }] };
}

export function listArtifacts(reader: ArtifactReader): Resource[] {
  return reader.recentIds().map((id) => ({ uri: `${ARTIFACT_SCHEME}${id}`, name: id, mimeType: 'image/png' }));
}
