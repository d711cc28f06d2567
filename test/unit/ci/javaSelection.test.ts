/**
 * `.ci/run`: Selenium Server 4 needs Java 17, so CI installs
 * openjdk-17-jre-headless when java is missing or older than 17, and puts Java 17 first on PATH.
 * The script's own Java block runs here under bash with fake `java` binaries, a fake JVM
 * directory in place of /usr/lib/jvm, and apt-get replaced by a function that records its call.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';

let root: string;

function fakeJava(dir: string, versionLine: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'java');
  writeFileSync(file, `#!/bin/sh\necho '${versionLine}' >&2\n`);
  chmodSync(file, 0o755);
  return dir;
}

/** The lines of .ci/run from `java_major()` to the `java -version` report, with the JVM root moved to `jvmRoot`. */
function javaBlock(jvmRoot: string): string {
  const script = readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8');
  const start = script.indexOf('java_major() {');
  const endMarker = 'java -XX:-UsePerfData -version 2>&1 | head -n 1\n';
  const end = script.indexOf(endMarker, start);
  expect(start, 'java_major() in .ci/run').toBeGreaterThanOrEqual(0);
  expect(end, 'the java -version report in .ci/run').toBeGreaterThan(start);
  return script
    .slice(start, end + endMarker.length)
    .split('/usr/lib/jvm/')
    .join(`${jvmRoot}/`);
}

interface Outcome {
  readonly status: number | null;
  readonly apt: string[];
  readonly firstOnPath: string;
  readonly reported: string;
}

function run(javaDir: string | null, jvmRoot: string): Outcome {
  const tools = join(root, 'tools');
  const program = [
    'set -euo pipefail',
    'apt-get() { echo "APT $*" >> "$APT_LOG"; }',
    'adb() { :; }',
    'chromium() { :; }',
    'curl() { :; }',
    'jq() { :; }',
    javaBlock(jvmRoot),
    'echo "FIRST ${PATH%%:*}"',
  ].join('\n');
  const aptLog = join(root, `apt-${Math.random().toString(36).slice(2)}.log`);
  writeFileSync(aptLog, '');
  const result = spawnSync(join(tools, 'bash'), ['-c', program], {
    env: { PATH: [javaDir, tools].filter((entry) => entry !== null).join(':'), APT_LOG: aptLog, HOME: root },
    encoding: 'utf8',
  });
  const out = `${result.stdout}${result.stderr}`;
  return {
    status: result.status,
    apt: readFileSync(aptLog, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0),
    firstOnPath: /FIRST (\S+)/.exec(out)?.[1] ?? '',
    reported: /version "([^"]+)"/.exec(out)?.[1] ?? '',
  };
}

const bashPath = spawnSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).stdout.trim();

describe.skipIf(bashPath === '')('.ci/run: Java 17 for the Selenium Grid suites', () => {
  let none: string;
  let withJava17: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'amh-ci-java-'));
    mkdirSync(join(root, 'tools'));
    for (const tool of ['bash', 'sed', 'head']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(found, join(root, 'tools', tool));
    }
    fakeJava(join(root, 'j8'), 'java version "1.8.0_292"');
    fakeJava(join(root, 'j11'), 'openjdk version "11.0.22" 2024-01-16');
    fakeJava(join(root, 'j21'), 'openjdk version "21" 2023-09-19');
    none = join(root, 'jvm-none');
    mkdirSync(none);
    withJava17 = join(root, 'jvm-17');
    fakeJava(join(withJava17, 'java-17-openjdk-amd64', 'bin'), 'openjdk version "17.0.15" 2025-04-15');
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.each(['j8', 'j11'])(
    'java older than 17 (%s) and no Java 17: installs openjdk-17-jre-headless, and fails plainly when it still finds none',
    (java) => {
      const outcome = run(join(root, java), none);
      expect(outcome.apt).toEqual(['APT update -qq', 'APT install -y -qq openjdk-17-jre-headless']);
      expect(outcome.status).toBe(1);
    },
  );

  it('no java at all and no Java 17: installs it', () => {
    const outcome = run(null, none);
    expect(outcome.apt).toEqual(['APT update -qq', 'APT install -y -qq openjdk-17-jre-headless']);
  });

  it.each(['j8', 'j11', null])('Java 17 installed, %s first on PATH: nothing installed, Java 17 put first', (java) => {
    const outcome = run(java === null ? null : join(root, java), withJava17);
    expect(outcome).toEqual({
      status: 0,
      apt: [],
      firstOnPath: join(withJava17, 'java-17-openjdk-amd64', 'bin'),
      reported: '17.0.15',
    });
  });

  it('a java of 17 or newer on PATH is kept as it is', () => {
    const outcome = run(join(root, 'j21'), withJava17);
    expect(outcome).toEqual({ status: 0, apt: [], firstOnPath: join(root, 'j21'), reported: '21' });
  });
});
