/** Evidence as the oracle checks it: the file the envelope names exists, is a PNG, and shows something. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { WireEnvelope } from './harnessClient.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ARTIFACT_ID = /^\d{8}-\d{6}-\d{6}-[a-z0-9-]+\.png$/;

export interface EvidenceFile {
  readonly artifactId: string;
  readonly bytes: Buffer;
  readonly width: number;
  readonly height: number;
}

/**
 * Reads the evidence an envelope references from `evidenceDir` (ANDROID_MCP_ARTIFACTS_DIR) and
 * checks it: `evidence` is `{artifact_id}` and nothing else (no path, no uri: the id is the file's name
 * in the evidence directory), the id's shape, the file on disk, the PNG signature, a decodable image
 * that is not a single flat colour. `label` is the expected label suffix.
 */
export function readEvidence(evidenceDir: string, envelope: WireEnvelope, label: string): EvidenceFile {
  const evidence = envelope.evidence;
  if (!evidence) throw new Error(`${envelope.tool} returned no evidence: ${JSON.stringify(envelope)}`);
  const keys = Object.keys(evidence).join(',');
  if (keys !== 'artifact_id') throw new Error(`evidence carries ${keys}, not artifact_id alone`);
  const id = evidence.artifact_id;
  if (!ARTIFACT_ID.test(id)) throw new Error(`artifact id of unexpected shape: ${id}`);
  if (!id.endsWith(`-${label}.png`)) throw new Error(`artifact ${id} does not carry the label ${label}`);
  const file = join(evidenceDir, id);
  if (!existsSync(file)) throw new Error(`evidence ${id} is not on disk in the artifacts directory`);
  const bytes = readFileSync(file);
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error(`evidence ${id} is not a PNG`);
  const png = PNG.sync.read(bytes);
  if (isFlat(png.data)) throw new Error(`evidence ${id} is one flat colour`);
  return { artifactId: id, bytes, width: png.width, height: png.height };
}

function isFlat(rgba: Buffer): boolean {
  for (let i = 4; i < rgba.length; i += 4) {
    if (rgba[i] !== rgba[0] || rgba[i + 1] !== rgba[1] || rgba[i + 2] !== rgba[2]) return false;
  }
  return true;
}

/** True when two PNGs show different pixels (not only different bytes). */
export function pixelsDiffer(a: Buffer, b: Buffer): boolean {
  const pa = PNG.sync.read(a);
  const pb = PNG.sync.read(b);
  if (pa.width !== pb.width || pa.height !== pb.height) return true;
  return !pa.data.equals(pb.data);
}
