/**
 * The evidence resource: traversal and malformed `artifact://` ids through real
 * stdio (resources/read on the built server). Every one is refused; a canary file with unique
 * content outside artifacts/ (and the symlinks planted inside artifacts/ that point at it)
 * never shows up in any byte the server writes. A real evidence file is served, so the
 * refusals are not a resource that can read nothing at all.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, spawnRawServer, type RawServer } from '../support/rawServer.js';

const GOOD_ID = '20260101-000000-000001-screen.png';
const SYMLINK_TO_CANARY = '20260101-000000-000002-screen.png';
const SYMLINK_TO_PASSWD = '20260101-000000-000003-screen.png';
const DIRECTORY_ID = '20260101-000000-000004-screen.png';
const SYMLINK_TO_PARENT_DIR = '20260101-000000-000005-screen.png';

let scratch: string;
let server: RawServer;
let canaryText: string;
let canaryName: string;
let nextId = 1;

function png(): Buffer {
  const image = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < image.data.length; i += 4) {
    image.data[i] = i * 7;
    image.data[i + 1] = 80;
    image.data[i + 2] = 160;
    image.data[i + 3] = 255;
  }
  return PNG.sync.write(image);
}

/** The malformed and traversal uris (each refused), built from payloads × spellings. */
function hostileUris(): unknown[] {
  const targets = [
    `../${canaryName}`,
    `../../${canaryName}`,
    `./../${canaryName}`,
    `${GOOD_ID}/../../${canaryName}`,
    `${GOOD_ID}/../${GOOD_ID}`,
    '../../README.md',
    '../../../../../../etc/passwd',
    '/etc/passwd',
    'x.png/../../LICENSE',
    `..\\..\\${canaryName}`,
    `${canaryName}`,
    'canary.png',
    '.',
    '..',
    '',
    `/${GOOD_ID}`,
    `./${GOOD_ID}`,
    `artifacts/${GOOD_ID}`,
  ];
  const spellings: ((t: string) => string)[] = [
    (t) => t,
    (t) => encodeURIComponent(t),
    (t) => t.replaceAll('.', '%2e').replaceAll('/', '%2f'),
    (t) => t.replaceAll('.', '%252e').replaceAll('/', '%252f'),
    (t) => t.replaceAll('/', '\\'),
    (t) => t.replaceAll('..', '\u2025'), // two dot leader
    (t) => t.replaceAll('.', '\uff0e'), // fullwidth full stop
  ];
  const uris: unknown[] = [];
  for (const target of targets) for (const spell of spellings) uris.push(`artifact://${spell(target)}`);
  uris.push(
    `artifact://${SYMLINK_TO_CANARY}`,
    `artifact://${SYMLINK_TO_PASSWD}`,
    `artifact://${DIRECTORY_ID}`,
    `artifact://${SYMLINK_TO_PARENT_DIR}`,
    `artifact://${GOOD_ID}\u0000.txt`,
    `artifact://${GOOD_ID}\n`,
    `artifact://${GOOD_ID} `,
    ` artifact://${GOOD_ID}`,
    `artifact://${GOOD_ID}?download=1`,
    `artifact://${GOOD_ID}#x`,
    `artifact://${GOOD_ID.toUpperCase()}`,
    `ARTIFACT://${GOOD_ID}`,
    `artifacts://${GOOD_ID}`,
    `artifact:/${GOOD_ID}`,
    `artifact:${GOOD_ID}`,
    `file://${join(scratch, canaryName)}`,
    `file:///etc/passwd`,
    `http://127.0.0.1/${GOOD_ID}`,
    'artifact://',
    'artifact:///etc/passwd',
    'artifact://20260101-000000-00001-screen.png',
    'artifact://20260101-000000-0000001-screen.png',
    'artifact://2026011-000000-000001-screen.png',
    'artifact://20260101-000000-000001-SCREEN.png',
    'artifact://20260101-000000-000001-screen.PNG',
    'artifact://20260101-000000-000001-screen.png.png/..',
    'artifact://20260101-000000-000001-scr een.png',
    'artifact://20260101-000000-000001-screen_x.png',
    `artifact://20260101-000000-000001-${'a'.repeat(41)}.png`,
    `artifact://20260101-000000-000001-screen.png${'/'.repeat(3)}`,
    'artifact://20260101-000000-000001-\u202escreen.png',
    'artifact://٢٠٢٦٠١٠١-٠٠٠٠٠٠-٠٠٠٠٠١-screen.png', // Arabic-Indic digits
    `artifact://${'../'.repeat(200)}etc/passwd`,
    `artifact://${'x'.repeat(10_000)}.png`,
    '20260101-000000-000001-screen.png',
    'artifact://20261301-000000-000999-screen.png', // the right shape, no such file
    42,
    null,
    true,
    { uri: `artifact://${GOOD_ID}` },
    [`artifact://${GOOD_ID}`],
  );
  return uris;
}

async function request(
  method: string,
  params: unknown,
): Promise<{ id: number; result?: { contents?: { blob?: string }[] }; error?: { code: number; message: string } }> {
  const id = nextId++;
  const before = server.stdout().length;
  await server.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const lines = server.stdout().subarray(before).toString('utf8').split('\n').filter(Boolean);
    for (const line of lines) {
      const message = JSON.parse(line) as { id?: number };
      if (message.id === id) return message as never;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(
    `no answer to ${method} ${JSON.stringify(params).slice(0, 200)}; stderr: ${server.stderr().slice(-1000)}`,
  );
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'amh-evidence-'));
  const artifacts = join(scratch, 'artifacts');
  mkdirSync(artifacts);
  canaryText = `CANARY-${randomUUID()}-never-served`;
  canaryName = `canary-${randomUUID()}.png`;
  writeFileSync(join(scratch, canaryName), canaryText);
  writeFileSync(join(scratch, 'canary.png'), canaryText);
  writeFileSync(join(artifacts, GOOD_ID), png());
  symlinkSync(join('..', canaryName), join(artifacts, SYMLINK_TO_CANARY));
  symlinkSync('/etc/passwd', join(artifacts, SYMLINK_TO_PASSWD));
  mkdirSync(join(artifacts, DIRECTORY_ID));
  symlinkSync('..', join(artifacts, SYMLINK_TO_PARENT_DIR));
  server = spawnRawServer(isolatedEnv(scratch));
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'evidence', version: '0' },
  });
  await server.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
});

afterAll(async () => {
  if (server?.alive()) await server.end();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the artifact:// resource refuses traversal and never serves what lies outside artifacts/', () => {
  it('serves a real evidence file (the positive control)', async () => {
    const answer = await request('resources/read', { uri: `artifact://${GOOD_ID}` });
    expect(Buffer.from(answer.result?.contents?.[0]?.blob ?? '', 'base64').equals(png())).toBe(true);
  });

  it('refuses at least 100 traversal and malformed ids, and the canary never appears in any output', async () => {
    const uris = hostileUris();
    expect(uris.length).toBeGreaterThanOrEqual(100);
    const served: string[] = [];
    for (const uri of uris) {
      const answer = await request('resources/read', { uri });
      if (!answer.error || answer.result) served.push(String(uri).slice(0, 120));
      else expect([-32602, -32002], String(uri).slice(0, 120)).toContain(answer.error.code);
    }
    expect(served).toEqual([]);
    const everything = server.stdout().toString('utf8') + server.stderr();
    expect(everything).not.toContain(canaryText);
    expect(everything).not.toContain(Buffer.from(canaryText).toString('base64').slice(0, 40));
    expect(everything).not.toContain('root:x:0:0');
    expect(everything).not.toContain(Buffer.from('root:x:0:0').toString('base64').slice(0, 12));
    // No host path in any refusal.
    expect(server.stdout().toString('utf8')).not.toContain(scratch);
    process.stderr.write(
      `[reliability] evidence resource: ${uris.length} hostile artifact ids refused, canary never served\n`,
    );
  });

  it('resources/list and templates offer nothing outside the evidence the server wrote', async () => {
    const list = (await request('resources/list', {})) as unknown as { result: { resources: { uri: string }[] } };
    expect(list.result.resources.every((r) => /^artifact:\/\/\d{8}-\d{6}-\d{6}-[a-z0-9-]+\.png$/.test(r.uri))).toBe(
      true,
    );
    expect(JSON.stringify(list)).not.toContain('canary');
  });
});
