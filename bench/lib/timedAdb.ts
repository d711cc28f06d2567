/**
 * Timing adb from outside the harness: an SDK root whose platform-tools/adb is a small bash wrapper
 * that records, for every adb process the harness starts, the wall-clock start and end (bash's
 * $EPOCHREALTIME, no extra process) and then runs the real adb with the same argv and stdio.
 * The harness finds it through ANDROID_HOME exactly as it finds a real SDK. The wrapper's own start
 * (one bash exec, ~2 ms) lands before the recorded start, i.e. on the harness's side of the split.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Interval {
  readonly start: number;
  readonly end: number;
  readonly what: string;
}

export interface TimedAdb {
  readonly androidHome: string;
  readonly logFile: string;
  intervals(): Interval[];
}

export function createTimedAdb(realAdb: string): TimedAdb {
  const root = mkdtempSync(join(tmpdir(), 'amh-bench-sdk-'));
  mkdirSync(join(root, 'platform-tools'));
  const logFile = join(root, 'adb-times.log');
  const wrapper = join(root, 'platform-tools', 'adb');
  writeFileSync(
    wrapper,
    [
      '#!/bin/bash',
      's=$EPOCHREALTIME',
      `${JSON.stringify(realAdb)} "$@"`,
      'rc=$?',
      `printf '%s %s %s\\n' "$s" "$EPOCHREALTIME" "$*" >> ${JSON.stringify(logFile)}`,
      'exit $rc',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  return {
    androidHome: root,
    logFile,
    intervals(): Interval[] {
      if (!existsSync(logFile)) return [];
      return readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [s, e, ...rest] = line.split(' ');
          // EPOCHREALTIME uses the locale's decimal separator; normalise a comma.
          return {
            start: Number(String(s).replace(',', '.')) * 1000,
            end: Number(String(e).replace(',', '.')) * 1000,
            what: rest.join(' '),
          };
        });
    },
  };
}
