/** Evidence as the oracle checks it: the file the envelope names exists, is a PNG, and shows something. */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { REPO_ROOT } from '../../support/appium.js';
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
 * checks it: the id's shape, `uri` derived from it, `path` naming that file as a user opens it, the PNG signature,
 * a decodable image that is not a single flat colour. `label` is the expected label suffix.
 */
export function readEvidence(evidenceDir: string, envelope: WireEnvelope, label: string): EvidenceFile {
  const evidence = envelope.evidence;
  if (!evidence) throw new Error(`${envelope.tool} returned no evidence: ${JSON.stringify(envelope)}`);
  const id = evidence.artifact_id;
  if (!ARTIFACT_ID.test(id)) throw new Error(`artifact id of unexpected shape: ${id}`);
  if (!id.endsWith(`-${label}.png`)) throw new Error(`artifact ${id} does not carry the label ${label}`);
  // evidence.path is how the user opens the file: relative to the server's working directory
  // (REPO_ROOT, see harnessClient), `~/…`, or absolute when the directory lies outside both.
  const opened = evidence.path.startsWith('~/')
    ? join(homedir(), evidence.path.slice(2))
    : resolve(REPO_ROOT, evidence.path);
  if (!evidence.path.endsWith(`/${id}`) || opened !== resolve(REPO_ROOT, evidenceDir, id)) {
    throw new Error(`evidence path ${evidence.path} does not name ${id} in the artifacts directory`);
  }
  if (evidence.uri !== `artifact://${id}`) throw new Error(`evidence uri ${evidence.uri} is not artifact://${id}`);
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
