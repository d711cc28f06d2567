import { describe, expect, it } from 'vitest';
import { EvidencedError, OperationRunner } from '../../../src/application/OperationRunner.js';
import { OPERATION_ID_PATTERN } from '../../../src/domain/envelope.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../support/fakes/SeededRandom.js';

describe('OperationRunner', () => {
  it('wraps a success in the envelope with a fresh 12-character operation id per call', async () => {
    const runner = new OperationRunner(new SeededRandom(), new RecordingLogger());
    const a = await runner.run('ui_tap', async () => ({ data: { x: 1 } }));
    const b = await runner.run('ui_tap', async () => ({ data: { x: 1 } }));
    expect(a.envelope).toEqual({
      ok: true,
      operation_id: a.envelope.operation_id,
      tool: 'ui_tap',
      data: { x: 1 },
      evidence: null,
      error: null,
    });
    expect(a.envelope.operation_id).toMatch(OPERATION_ID_PATTERN);
    expect(a.envelope.operation_id).toMatch(/^[0-9a-z]{12}$/);
    expect(b.envelope.operation_id).not.toBe(a.envelope.operation_id);
  });

  it('gives failures data {} and the typed error, with evidence when attached', async () => {
    const runner = new OperationRunner(new SeededRandom(), new RecordingLogger());
    const evidence = { artifact_id: 'a.png', path: 'artifacts/a.png', uri: 'artifact://a.png' };
    const { envelope } = await runner.run('ui_tap', () =>
      Promise.reject(new EvidencedError(new HarnessError('UI_ELEMENT_NOT_FOUND', 'nothing matched'), evidence)),
    );
    expect(envelope).toMatchObject({
      ok: false,
      tool: 'ui_tap',
      data: {},
      evidence,
      error: { code: 'UI_ELEMENT_NOT_FOUND', message: 'nothing matched' },
    });
  });

  it('turns anything unclassified into INTERNAL_ERROR: no stack, no path, logged with its cause', async () => {
    const logger = new RecordingLogger();
    const runner = new OperationRunner(new SeededRandom(), logger);
    const { envelope } = await runner.run('screen_capture', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /home/dev/harness/src/x.ts:3:9");
    });
    expect(envelope.error?.code).toBe('INTERNAL_ERROR');
    expect(envelope.error?.message).toBe(
      `An unexpected error occurred; see the server log (operation ${envelope.operation_id}).`,
    );
    expect(JSON.stringify(envelope)).not.toMatch(/\/home|TypeError|at /);
    const logged = logger.entries.find((e) => e.level === 'error');
    expect(logged?.fields?.operation_id).toBe(envelope.operation_id);
    expect(String(logged?.fields?.cause)).toContain('TypeError');
  });

  it('strips host paths and stack lines from typed messages too', async () => {
    const runner = new OperationRunner(new SeededRandom(), new RecordingLogger());
    const { envelope } = await runner.run('ui_get_tree', () =>
      Promise.reject(
        new HarnessError('UI_TREE_UNAVAILABLE', 'bad dump in /var/tmp/dump.xml\n    at parse (/srv/x.js:1:1)'),
      ),
    );
    expect(envelope.error).toEqual({ code: 'UI_TREE_UNAVAILABLE', message: 'bad dump in <path>' });
  });

  it('treats a HarnessError of code INTERNAL_ERROR as unclassified (its message may carry details)', async () => {
    const runner = new OperationRunner(new SeededRandom(), new RecordingLogger());
    const { envelope } = await runner.run('ui_tap', () =>
      Promise.reject(new HarnessError('INTERNAL_ERROR', 'driver said: secret')),
    );
    expect(envelope.error?.message).not.toContain('secret');
  });
});
