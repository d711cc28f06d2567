import { describe, expect, it } from 'vitest';
import { ARTIFACT_ID_PATTERN, EVIDENCE_LABELS, failureLabel, formatEvidenceName, isArtifactId } from '../../../src/domain/evidenceName.js';

describe('formatEvidenceName (CONTRACT §9)', () => {
  const date = new Date(Date.UTC(2026, 10, 30, 17, 12, 3, 999));

  it('formats YYYYMMDD-HHMMSS-NNNNNN-label.png in UTC', () => {
    expect(formatEvidenceName(date, 482911, 'ui-tap')).toBe('20261130-171203-482911-ui-tap.png');
    expect(formatEvidenceName(date, 7, 'screen')).toBe('20261130-171203-000007-screen.png');
    expect(formatEvidenceName(date, '000042', 'screen')).toBe('20261130-171203-000042-screen.png');
    expect(formatEvidenceName(new Date(Date.UTC(2027, 0, 2, 3, 4, 5)), 999999, 'failure-app-open')).toBe('20270102-030405-999999-failure-app-open.png');
  });

  it('issues only names its own pattern accepts, for every label and failure label', () => {
    for (const label of EVIDENCE_LABELS) {
      expect(isArtifactId(formatEvidenceName(date, 123456, label))).toBe(true);
      expect(isArtifactId(formatEvidenceName(date, 0, failureLabel(label)))).toBe(true);
    }
  });

  it.each([
    [-1, 'screen'],
    [1_000_000, 'screen'],
    [1.5, 'screen'],
    ['12345', 'screen'],
    [1, '../x'],
    [1, 'Screen'],
    [1, ''],
    [1, 'a'.repeat(41)],
    [1, 'x.png'],
  ])('refuses suffix %j with label %j', (digits, label) => {
    expect(() => formatEvidenceName(date, digits, label)).toThrow(RangeError);
  });

  it('refuses an invalid date', () => {
    expect(() => formatEvidenceName(new Date(Number.NaN), 1, 'screen')).toThrow(RangeError);
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
