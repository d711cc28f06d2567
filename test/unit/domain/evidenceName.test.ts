import { describe, expect, it } from 'vitest';
import {
  ARTIFACT_ID_PATTERN,
  EVIDENCE_LABELS,
  failureLabel,
  formatEvidenceName,
  isArtifactId,
} from '../../../src/domain/evidenceName.js';

describe('formatEvidenceName (the evidence names of the contract)', () => {
  /** 2026-11-30 17:12:03 UTC plus `us` microseconds. */
  const at = (us: number) => Date.UTC(2026, 10, 30, 17, 12, 3) * 1000 + us;

  it('formats YYYYMMDD-HHMMSS-NNNNNN-label.png in UTC, NNNNNN the microseconds within the second', () => {
    expect(formatEvidenceName(at(482_911), 'ui-tap')).toBe('20261130-171203-482911-ui-tap.png');
    expect(formatEvidenceName(at(7), 'screen')).toBe('20261130-171203-000007-screen.png');
    expect(formatEvidenceName(at(999_999), 'screen')).toBe('20261130-171203-999999-screen.png');
    expect(formatEvidenceName(at(1_000_000), 'screen')).toBe('20261130-171204-000000-screen.png');
    expect(formatEvidenceName(Date.UTC(2027, 0, 2, 3, 4, 5) * 1000, 'failure-app-open')).toBe(
      '20270102-030405-000000-failure-app-open.png',
    );
  });

  it('sorts names in time order within a second and across seconds, whatever the labels', () => {
    const times = [at(245_718), at(810_491), at(810_492), at(999_999), at(1_000_000), at(61_000_001)];
    const labels = ['ui-scroll', 'device-back', 'app-open', 'screen', 'failure-ui-tap', 'ui-type'];
    const names = times.map((t, i) => formatEvidenceName(t, labels[i] ?? 'screen'));
    expect([...names].reverse().sort()).toEqual(names);
  });

  it('issues only names its own pattern accepts, for every label and failure label', () => {
    for (const label of EVIDENCE_LABELS) {
      expect(isArtifactId(formatEvidenceName(at(123_456), label))).toBe(true);
      expect(isArtifactId(formatEvidenceName(at(0), failureLabel(label)))).toBe(true);
    }
  });

  it.each([
    [-1, 'screen'],
    [1.5, 'screen'],
    [Number.NaN, 'screen'],
    [Number.MAX_SAFE_INTEGER + 1, 'screen'],
    [1, '../x'],
    [1, 'Screen'],
    [1, ''],
    [1, 'a'.repeat(41)],
    [1, 'x.png'],
  ])('refuses time %j with label %j', (micros, label) => {
    expect(() => formatEvidenceName(micros, label)).toThrow(RangeError);
  });
});

describe('isArtifactId', () => {
  it.each([
    '../../README.md',
    '/etc/passwd',
    'x.png/../../LICENSE',
    '20261130-171203-482911-ui-tap.png/..',
    '20261130-171203-482911-ui-tap.png\n',
    '20261130-171203-482911-UI-TAP.png',
    '20261130-171203-48291-ui-tap.png',
    '20261130-171203-482911-ui_tap.png',
    '20261130-171203-482911-.png',
    '20261130-171203-482911-ui-tap.PNG',
    '..%2F..%2Fetc%2Fpasswd',
    `20261130-171203-482911-${'a'.repeat(41)}.png`,
    '',
    null,
    42,
  ])('refuses %j', (value) => {
    expect(isArtifactId(value)).toBe(false);
  });

  it('accepts the issued shape', () => {
    expect(isArtifactId('20261130-171203-482911-ui-tap.png')).toBe(true);
    expect(ARTIFACT_ID_PATTERN.source).toBe('^\\d{8}-\\d{6}-\\d{6}-[a-z0-9-]{1,40}\\.png$');
  });
});
