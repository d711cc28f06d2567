import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidenceWriter } from '../../../src/application/evidence/EvidenceWriter.js';
import type { EvidenceStore } from '../../../src/domain/ports.js';
import { FileEvidenceStore } from '../../../src/infrastructure/fs/FileEvidenceStore.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { artifactIdFromUri, listArtifacts, readArtifact } from '../../../src/mcp/artifactResource.js';
import { FakeClock } from '../../support/FakeClock.js';
import { makePng } from '../../support/fakes/images.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

const CANARY = 'CANARY-7f3a-never-serve-me';
/** The refusal of anything that is not an issued id: the same words whatever was sent. */
const REFUSED =
  'INVALID_ARGUMENT: refused to read that uri, it is not an artifact id the harness issues. Name the `evidence.artifact_id` of a tool answer exactly as given (artifact://YYYYMMDD-HHMMSS-NNNNNN-label.png).';

/** The real file store, with every name it is asked to read recorded. */
class RecordingStore implements EvidenceStore {
  readonly reads: string[] = [];
  constructor(private readonly inner: FileEvidenceStore) {}
  createExclusive(name: string, bytes: Buffer): Promise<void> {
    return this.inner.createExclusive(name, bytes);
  }
  read(name: string): Promise<Buffer | null> {
    this.reads.push(name);
    return this.inner.read(name);
  }
}

let root: string;
let store: RecordingStore;
let writer: EvidenceWriter;
let issued: string;
const SYMLINKED_ID = '20261130-171203-000001-screen.png';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'harness-artifacts-'));
  const artifacts = path.join(root, 'artifacts');
  mkdirSync(artifacts);
  writeFileSync(path.join(root, 'canary.txt'), CANARY);
  writeFileSync(path.join(root, 'README.md'), CANARY);
  writeFileSync(path.join(root, 'LICENSE'), CANARY);
  // A well-shaped name inside artifacts/ that points outside: must still never be served.
  symlinkSync(path.join(root, 'canary.txt'), path.join(artifacts, SYMLINKED_ID));
  store = new RecordingStore(new FileEvidenceStore(artifacts));
  writer = new EvidenceWriter(store, new PngImageTools(), new FakeClock(), new RecordingLogger());
  issued = (await writer.write('screen', makePng(6, 6))).ref.artifact_id;
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function hostileIds(valid: string): string[] {
  const targets = [
    'canary.txt',
    'README.md',
    'LICENSE',
    'etc/passwd',
    valid,
    `artifacts/${valid}`,
    `${valid}/../../canary.txt`,
  ];
  const prefixes = [
    '',
    '../',
    '../../',
    '/',
    './',
    '%2e%2e/',
    '%2e%2e%2f',
    '..%2f',
    '..\\',
    '....//',
    '..;/',
    '%252e%252e%252f',
    'artifacts/../',
    '\u2025/',
  ];
  const ids = new Set<string>();
  for (const prefix of prefixes) for (const target of targets) ids.add(`${prefix}${target}`);
  for (const extra of [
    '/etc/passwd',
    'x.png/../../LICENSE',
    `${valid}\u0000.txt`,
    `${valid}%00`,
    `${valid}?x=1`,
    `${valid}#frag`,
    ` ${valid}`,
    `${valid} `,
    `${valid}\n`,
    valid.toUpperCase(),
    valid.replace('.png', '.PNG'),
    valid.replace('.png', '.png.png'),
    valid.replace('-screen', '-Screen'),
    valid.replace('-screen', '-../x'),
    valid.replace(/^\d{8}/, '2026113'),
    valid.replace(/-\d{6}-/, '-12345-'),
    encodeURIComponent(`../${valid}`),
    'C:\\Windows\\win.ini',
    '\\\\server\\share\\x.png',
    '',
    '.',
    '..',
    '~/.ssh/id_rsa',
    'file:///etc/passwd',
    `${'a'.repeat(300)}.png`,
  ]) {
    ids.add(extra);
  }
  ids.delete(valid);
  return [...ids];
}

describe('artifact:// resource', () => {
  it('serves an issued artifact', async () => {
    const result = await readArtifact(writer, `artifact://${issued}`);
    expect(result.contents).toEqual([
      { uri: `artifact://${issued}`, mimeType: 'image/png', blob: (await writer.read(issued))?.toString('base64') },
    ]);
  });

  it('refuses at least 100 traversal and malformed ids, and never reads the canary', async () => {
    const ids = hostileIds(issued);
    expect(ids.length).toBeGreaterThanOrEqual(100);
    store.reads.length = 0;
    const uris = [
      ...ids.map((id) => `artifact://${id}`),
      `ARTIFACT://${issued}`,
      `artifact:/${issued}`,
      `artifact:///${issued}`,
      `artifact://artifacts/${issued}`,
      `file://${root}/canary.txt`,
      `artifact://${SYMLINKED_ID}`,
    ];
    for (const uri of uris) {
      const failure = await readArtifact(writer, uri).then(
        (served) => {
          throw new Error(`served ${uri}: ${JSON.stringify(served).slice(0, 80)}`);
        },
        (error: unknown) => error,
      );
      expect(failure, uri).toBeInstanceOf(McpError);
      const { code, message } = failure as McpError;
      expect(String(message)).not.toContain(CANARY);
      expect(String(message)).not.toContain(root);
      if (uri === `artifact://${SYMLINKED_ID}`) {
        // Well shaped, so it is looked up; the store will not follow the link: not found, by its id.
        expect(code, uri).toBe(-32002);
        expect(message).toMatch(
          /^ARTIFACT_NOT_FOUND: There is no evidence file artifact:\/\/20261130-171203-000001-screen\.png /,
        );
        continue;
      }
      // One code and one message for every id that is not the issued shape: the id is never quoted back.
      expect(code, uri).toBe(-32602);
      expect(message, uri).toBe(REFUSED);
    }
    // Only the one well-shaped (symlinked) name ever reached the store, and the store refused it.
    expect(store.reads).toEqual([SYMLINKED_ID]);
  });

  it('answers a refused id INVALID_ARGUMENT and an unknown one ARTIFACT_NOT_FOUND, the code first, with what to do', async () => {
    const failure = (uri: string): Promise<McpError> =>
      readArtifact(writer, uri).then(
        () => new McpError(0, `served ${uri}`),
        (error: unknown) => error as McpError,
      );
    const refused = await failure('artifact://../../README.md');
    expect(refused).toBeInstanceOf(McpError);
    expect(refused.code).toBe(-32602);
    expect(refused.message).toBe(REFUSED);
    const unknownId = '20261130-171203-999999-screen.png';
    const unknown = await failure(`artifact://${unknownId}`);
    expect(unknown.code).toBe(-32002);
    // This writer has no retention bound: nothing of it is named.
    expect(unknown.message).toBe(
      `ARTIFACT_NOT_FOUND: There is no evidence file artifact://${unknownId} in the evidence directory: it was never written there, or it was removed. resources/list shows the recent ones; take a new one with screen_capture.`,
    );
    // The code travels in its own field; the message carries no SDK "MCP error -32002:" prefix.
    for (const error of [refused, unknown]) expect(error.message).not.toMatch(/MCP error/);
  });

  it('names the retention bound and how to raise it when one is in force', async () => {
    const bounded = {
      read: () => Promise.resolve(null),
      recentIds: () => [],
      retentionBound: () => ({ maxFiles: 3, maxBytes: Math.round(0.3 * 1024 * 1024) }),
    };
    const error = await readArtifact(bounded, 'artifact://20261130-171203-999999-screen.png').then(
      () => null,
      (failure: unknown) => failure as McpError,
    );
    expect(error?.message).toBe(
      'ARTIFACT_NOT_FOUND: There is no evidence file artifact://20261130-171203-999999-screen.png in the evidence directory: it was never written there, ' +
        'or it was removed: the evidence retention bound keeps the newest 3 files or 0.3 MB of evidence and removes the oldest ' +
        '(raise ANDROID_MCP_ARTIFACTS_MAX_FILES or ANDROID_MCP_ARTIFACTS_MAX_MB to keep more; what an open UI session gave out is kept while it lives). ' +
        'resources/list shows the recent ones; take a new one with screen_capture.',
    );
  });

  it('parses nothing but the exact issued shape', () => {
    expect(artifactIdFromUri(`artifact://${issued}`)).toBe(issued);
    expect(artifactIdFromUri(`artifact://%32${issued.slice(1)}`)).toBeNull();
    expect(artifactIdFromUri(42)).toBeNull();
  });
});

describe('resources/list', () => {
  it('names each recent id as an artifact:// PNG, in the order the writer gives them', () => {
    const ids = ['20261130-171204-000002-screen.png', '20261130-171203-000001-tap.png'];
    expect(listArtifacts({ read: async () => null, recentIds: () => ids })).toEqual(
      ids.map((id) => ({ uri: `artifact://${id}`, name: id, mimeType: 'image/png' })),
    );
  });
});
