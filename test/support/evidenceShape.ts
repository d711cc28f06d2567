import { expect } from 'vitest';
import { ARTIFACT_ID_PATTERN } from '../../src/domain/evidenceName.js';

/**
 * An answer's evidence as the contract has it (docs/reference/contract.md, "The envelope"): `{artifact_id}`
 * and nothing else, an id of the issued shape that carries `label`, naming a file that is in the
 * evidence directory (`hasFile`: the fake store, or the directory on disk). Returns the id.
 */
export function expectEvidence(evidence: unknown, label: string, hasFile: (id: string) => boolean): string {
  expect(evidence).toEqual({ artifact_id: expect.stringMatching(ARTIFACT_ID_PATTERN) });
  const id = (evidence as { artifact_id: string }).artifact_id;
  expect(id.endsWith(`-${label}.png`), `${id} carries the label ${label}`).toBe(true);
  expect(hasFile(id), `${id} is in the evidence directory`).toBe(true);
  return id;
}
