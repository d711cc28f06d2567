import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../../src/application/OperationRunner.js';
import { Traces } from '../../../src/application/trace/Traces.js';
import type { Envelope } from '../../../src/domain/envelope.js';
import type { Logger } from '../../../src/domain/ports.js';
import { FileTraceStore, TRACE_FILE } from '../../../src/infrastructure/trace/FileTraceStore.js';
import { FakeClock } from '../../support/FakeClock.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function artifacts(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trace-'));
  dirs.push(dir);
  return dir;
}

function envelope(tool: string, data: Record<string, unknown>, extra: Partial<Envelope> = {}): OperationResult {
  return { envelope: { ok: true, operation_id: 'op', tool, data, evidence: null, error: null, ...extra } };
}

function tracesIn(dir: string, clock: FakeClock, bounds: { keep?: number; maxBytes?: number } = {}): Traces {
  const store = new FileTraceStore({
    artifactsDir: dir,
    keep: bounds.keep ?? 10,
    maxBytes: bounds.maxBytes ?? 10_000_000,
    clock,
    logger: quiet,
  });
  return new Traces({ store, clock, defaultDevice: 'emulator-5554', sessionName: null, serverVersion: '0.0.0' });
}

function linesOf(dir: string): Record<string, unknown>[] {
  const [folder] = readdirSync(path.join(dir, 'traces'));
  return readFileSync(path.join(dir, 'traces', folder ?? '', TRACE_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the trace of a session', () => {
  it('writes one line per call, names the summary read before it, and never the typed text or a session id', async () => {
    const dir = artifacts();
    const clock = new FakeClock();
    const traces = tracesIn(dir, clock);
    const tree = traces.session.begin('ui_get_tree', {});
    await clock.advance(40);
    tree.end({
      ...envelope('ui_get_tree', { actions: [{ ref: 'e1', input_hint: 'Password' }] }),
      trace: { bounds: { e1: [0, 10, 100, 50] } },
    });
    const open = traces.session.begin('ui_session_open', {});
    open.end(envelope('ui_session_open', { session_id: 'SeCrEtSeSsIoN' }));
    const typed = traces.session.begin('ui_type_text', {
      selector: { ref: 'e1' },
      text: 'hunter2 secret',
      session_id: 'SeCrEtSeSsIoN',
    });
    await clock.advance(250);
    typed.end({
      envelope: {
        ok: false,
        operation_id: 'op',
        tool: 'ui_type_text',
        data: {},
        evidence: { artifact_id: 'x-ui-type.png' },
        error: { code: 'UI_ELEMENT_NOT_FOUND', message: 'could not type hunter2 secret into it' },
      },
    });
    const text = readFileSync(
      path.join(dir, 'traces', readdirSync(path.join(dir, 'traces'))[0] ?? '', TRACE_FILE),
      'utf8',
    );
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('SeCrEtSeSsIoN');
    const lines = linesOf(dir);
    expect(lines.map((line) => line.type)).toEqual(['start', 'call', 'call', 'call']);
    const [, treeLine, openLine, typeLine] = lines;
    expect(treeLine).toMatchObject({
      tool: 'ui_get_tree',
      duration_ms: 40,
      read_line: null,
      device: 'emulator-5554',
      bounds: { e1: [0, 10, 100, 50] },
    });
    expect(openLine).toMatchObject({ read_line: 2, envelope: { data: { session_id: 'session-1' } } });
    expect(typeLine).toMatchObject({
      tool: 'ui_type_text',
      arguments: { selector: { ref: 'e1' }, text: '[typed text]', typed_characters: 14, session_id: 'session-1' },
      ok: false,
      error_code: 'UI_ELEMENT_NOT_FOUND',
      evidence: ['x-ui-type.png'],
      read_line: 2,
      duration_ms: 250,
      envelope: { error: { message: 'could not type [typed text] into it' } },
    });
  });

  it('names the session trace by how the calls arrive (http), or by the name the flow runner chose', () => {
    const dir = artifacts();
    const clock = new FakeClock();
    const http = tracesIn(dir, clock);
    http.servedOver('http');
    http.session.begin('ui_get_tree', {}).end(envelope('ui_get_tree', {}));
    expect(http.sessionName).toMatch(/^\d{8}-\d{6}-\d{3}-http-\d+-1$/);
    const store = new FileTraceStore({ artifactsDir: dir, keep: 10, maxBytes: 1_000_000, clock, logger: quiet });
    const named = new Traces({ store, clock, defaultDevice: null, sessionName: 'chosen-flow-1', serverVersion: '0' });
    named.session.begin('ui_get_tree', {}).end(envelope('ui_get_tree', {}));
    expect(named.sessionName).toBe('chosen-flow-1');
    expect(readdirSync(path.join(dir, 'traces')).sort()).toEqual([http.sessionName, 'chosen-flow-1']);
  });

  it('opens nothing until the first call, and nothing at all when traces are off', () => {
    const dir = artifacts();
    const clock = new FakeClock();
    tracesIn(dir, clock);
    expect(() => readdirSync(path.join(dir, 'traces'))).toThrow();
    const off = new Traces({ store: null, clock, defaultDevice: null, sessionName: null, serverVersion: '0' });
    off.session.begin('ui_get_tree', {}).end(envelope('ui_get_tree', {}));
    expect(off.open('task')).toBeNull();
    expect(() => readdirSync(path.join(dir, 'traces'))).toThrow();
  });

  it('links the evidence a line names into the trace folder (the same file, not a copy)', () => {
    const dir = artifacts();
    writeFileSync(path.join(dir, 'a-ui-tap.png'), 'png bytes');
    const traces = tracesIn(dir, new FakeClock());
    traces.session.begin('ui_tap', {}).end(envelope('ui_tap', {}, { evidence: { artifact_id: 'a-ui-tap.png' } }));
    const folder = readdirSync(path.join(dir, 'traces'))[0] ?? '';
    const linked = path.join(dir, 'traces', folder, 'evidence', 'a-ui-tap.png');
    expect(statSync(linked).ino).toBe(statSync(path.join(dir, 'a-ui-tap.png')).ino);
    rmSync(path.join(dir, 'a-ui-tap.png'));
    expect(readFileSync(linked, 'utf8')).toBe('png bytes');
  });

  it('keeps at most `keep` traces, oldest out first, and stops one that reaches the byte bound', () => {
    const dir = artifacts();
    const clock = new FakeClock();
    for (const name of [
      '20200101-000000-000-stdio-1-1',
      '20200101-000001-000-stdio-1-1',
      '20200101-000002-000-stdio-1-1',
    ]) {
      mkdirSync(path.join(dir, 'traces', name), { recursive: true });
      writeFileSync(path.join(dir, 'traces', name, TRACE_FILE), '{}\n');
    }
    const traces = tracesIn(dir, clock, { keep: 2, maxBytes: 2_000 });
    const task = traces.open('task');
    expect(task).not.toBeNull();
    const left = readdirSync(path.join(dir, 'traces')).sort();
    expect(left).toEqual(['20200101-000002-000-stdio-1-1', task?.name]);
    for (let i = 0; i < 20; i += 1)
      task?.begin('ui_get_tree', {}).end(envelope('ui_get_tree', { texts: ['x'.repeat(200)] }));
    const text = readFileSync(path.join(dir, 'traces', task?.name ?? '', TRACE_FILE), 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2_000 + 200);
    const last = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as { type?: string };
    expect(last.type).toBe('stopped');
  });
});

describe('the element an action acted on', () => {
  it('is written on the call line beside acted_bounds, in the same bounds shape', async () => {
    const dir = artifacts();
    const clock = new FakeClock();
    const traces = tracesIn(dir, clock);
    const element = {
      selectors: [{ text: 'Storage' }],
      label: 'Storage',
      role: 'button' as const,
      bounds: [0, 300, 1080, 150] as const,
      package: 'com.android.settings',
      source: 'ref' as const,
    };
    const tap = traces.session.begin('ui_tap', { selector: { ref: 'e4' } });
    tap.end({ ...envelope('ui_tap', { element_label: 'Storage' }), trace: { acted: element.bounds, element } });
    const failed = traces.session.begin('ui_tap', { selector: { text: 'Nope' } });
    failed.end({
      envelope: {
        ok: false,
        operation_id: 'op',
        tool: 'ui_tap',
        data: {},
        evidence: null,
        error: { code: 'UI_ELEMENT_NOT_FOUND', message: 'no' },
      },
    });
    const [, line, failedLine] = linesOf(dir);
    expect(line).toMatchObject({ acted_bounds: [0, 300, 1080, 150], element });
    expect(failedLine?.element).toBeUndefined();
  });
});
