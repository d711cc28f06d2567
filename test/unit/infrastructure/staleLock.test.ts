/**
 * When a lock's holder counts as gone, rule by rule, with a scripted process probe: the cases the
 * FileDeviceLock tests reach only through a whole acquisition (mutation testing found them unwatched:
 * docs/internals/verification.md, "Mutation testing").
 */
import { describe, expect, it } from 'vitest';
import type { LockRecord, Reading } from '../../../src/infrastructure/lock/lockRecord.js';
import type { ProcessProbe } from '../../../src/infrastructure/lock/processProbe.js';
import { staleness, type Asker } from '../../../src/infrastructure/lock/staleLock.js';

const HOST = 'build-1';
const asker: Asker = { pid: 100, hostname: HOST, ownedNonce: undefined };

function holding(overrides: Partial<LockRecord> = {}): Reading {
  return {
    kind: 'record',
    record: {
      version: 1,
      pid: 200,
      hostname: HOST,
      nonce: 'n-200',
      process_start: '4242',
      acquired_at: '2026-12-07T10:00:00.000Z',
      activity: { tool: 'ui_tap', operation_id: 'op', kind: 'operation', since: '2026-12-07T10:00:00.000Z' },
      ...overrides,
    },
  };
}

const probe = (alive: boolean, start: string | null): ProcessProbe => ({
  isAlive: () => alive,
  startTime: () => start,
});

describe('staleness', () => {
  it('a live holder with the recorded start time is not stale', () => {
    expect(staleness(holding(), asker, probe(true, '4242'))).toBeNull();
  });

  it('each stale kind says why, as the takeover log writes it', () => {
    expect(staleness(holding(), asker, probe(false, null))).toBe('holder process is gone');
    expect(staleness(holding(), asker, probe(true, '9999'))).toBe('holder pid now belongs to another process');
    expect(staleness(holding({ pid: 100, nonce: 'earlier' }), asker, probe(true, '4242'))).toBe(
      'left by an earlier process with this pid',
    );
    expect(staleness({ kind: 'corrupt', ageMs: 2_001 }, asker, probe(true, null))).toBe('unreadable record');
  });

  it('a record without a start time (not Linux), or a start time the probe cannot read, leaves a live holder busy', () => {
    expect(staleness(holding({ process_start: null }), asker, probe(true, '9999'))).toBeNull();
    expect(staleness(holding(), asker, probe(true, null))).toBeNull();
  });

  it('its own live record is not stale; a corrupt record is busy until exactly 2 s old', () => {
    expect(
      staleness(holding({ pid: 100, nonce: 'mine' }), { ...asker, ownedNonce: 'mine' }, probe(true, '4242')),
    ).toBeNull();
    expect(staleness({ kind: 'corrupt', ageMs: 2_000 }, asker, probe(true, null))).toBeNull();
    expect(staleness({ kind: 'absent' }, asker, probe(false, null))).toBeNull();
  });

  it('a holder on another host is assumed alive (its pid cannot be checked from here)', () => {
    expect(staleness(holding({ hostname: 'other' }), asker, probe(false, null))).toBeNull();
  });
});
