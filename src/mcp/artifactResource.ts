import {
  ErrorCode,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { describeBound, isBounded, type RetentionBound } from '../domain/evidence/retention.js';
import { isArtifactId } from '../domain/evidenceName.js';
import { HarnessError } from '../domain/errors.js';
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
  /** The retention bound in force, named when an id is unknown (it may have removed the file). */
  retentionBound?(): RetentionBound | null;
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
 * The PNG an artifact uri names, for the resource and GET /artifacts/{id} alike. Refusals are
 * HarnessErrors with a code of the contract: INVALID_ARGUMENT for what is not an issued id,
 * ARTIFACT_NOT_FOUND for an issued-shape id with no file (never written, or removed).
 */
export async function loadArtifact(
  reader: ArtifactReader,
  uri: unknown,
): Promise<{ readonly id: string; readonly bytes: Buffer }> {
  const id = artifactIdFromUri(uri);
  if (id === null) {
    // Never quoted back: it may be anything, a host path included.
    throw new HarnessError(
      'INVALID_ARGUMENT',
      'refused to read that uri, it is not an artifact id the harness issues. ' +
        'Name the `evidence.artifact_id` of a tool answer exactly as given (artifact://YYYYMMDD-HHMMSS-NNNNNN-label.png).',
    );
  }
  const bytes = await reader.read(id);
  if (bytes === null)
    throw new HarnessError('ARTIFACT_NOT_FOUND', unknownArtifactMessage(id, reader.retentionBound?.() ?? null));
  return { id, bytes };
}

function unknownArtifactMessage(id: string, bound: RetentionBound | null): string {
  const removed =
    bound !== null && isBounded(bound)
      ? `or it was removed: the evidence retention bound keeps the newest ${describeBound(bound)} of evidence and removes the oldest ` +
        '(raise ANDROID_MCP_ARTIFACTS_MAX_FILES or ANDROID_MCP_ARTIFACTS_MAX_MB to keep more; what an open UI session gave out is kept while it lives)'
      : 'or it was removed';
  return (
    `There is no evidence file ${ARTIFACT_SCHEME}${id} in the evidence directory: it was never written there, ${removed}. ` +
    'resources/list shows the recent ones; take a new one with screen_capture.'
  );
}

/** The resource read: a refusal is a JSON-RPC error whose message starts with the contract's code. */
export async function readArtifact(reader: ArtifactReader, uri: unknown): Promise<ReadResourceResult> {
  try {
    const { id, bytes } = await loadArtifact(reader, uri);
    return { contents: [{ uri: `${ARTIFACT_SCHEME}${id}`, mimeType: 'image/png', blob: bytes.toString('base64') }] };
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    throw protocolError(
      error.code === 'ARTIFACT_NOT_FOUND' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams,
      `${error.code}: ${error.message}`,
    );
  }
}

export function listArtifacts(reader: ArtifactReader): Resource[] {
  return reader.recentIds().map((id) => ({ uri: `${ARTIFACT_SCHEME}${id}`, name: id, mimeType: 'image/png' }));
}
