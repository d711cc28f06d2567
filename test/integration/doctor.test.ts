/**
 * `android-mcp-harness doctor` as a user runs it: the built bin, the real adb, with one piece
 * taken away at a time (doctorVirtualDevice.test.ts adds the device). Each missing piece must
 * show up as its own [MISS] line with a remedy, everything else still checked, and exit code 1.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorScratch, type DoctorScratch } from '../support/doctorRun.js';

let doctor: DoctorScratch;
let emptyBin: string;

beforeAll(() => {
  doctor = doctorScratch();
  emptyBin = path.join(doctor.dir, 'empty-bin');
  mkdirSync(emptyBin);
});

afterAll(() => {
  doctor?.remove();
});

describe('doctor without the pieces (no device needed)', () => {
  it('adb absent (empty PATH, no ANDROID_HOME): adb blocks, the device checks are skipped, the rest still runs', async () => {
    const run = await doctor.run(doctor.baseEnv({ PATH: emptyBin, APPIUM_URL: 'http://127.0.0.1:9' }));
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({
      node: '[ok  ]',
      dependencies: '[ok  ]',
      evidence: '[ok  ]',
      adb: '[MISS]',
      device: '[--  ]',
      android: '[--  ]',
      appium: '[MISS]',
    });
    expect(run.stdout).toMatch(/adb not found in PATH/);
    expect(run.stdout).toMatch(/^ {2}adb: Install Android platform-tools .*ANDROID_HOME/m);
    // Java cannot be found either with an empty PATH: advisory, never a blocker.
    expect(run.marks.java).toBe('[--  ]');
    expect(run.stdout).not.toMatch(/^ {2}java:/m);
  });

  it('ANDROID_HOME pointing at an SDK without platform-tools/adb falls through to PATH and says where adb was found', async () => {
    const fakeSdk = path.join(doctor.dir, 'empty-sdk');
    mkdirSync(fakeSdk, { recursive: true });
    // A serial the guard refuses keeps adb from starting a server for the device checks.
    const run = await doctor.run(
      doctor.baseEnv({ ANDROID_HOME: fakeSdk, APPIUM_URL: 'http://127.0.0.1:9', ANDROID_UDID: 'refused serial' }),
    );
    expect(run.marks.adb).toBe('[ok  ]');
    expect(run.marks.device).toBe('[--  ]');
    expect(run.stdout).toMatch(/\(found through PATH\)/);
  });

  it('Appium absent: APPIUM_URL on a closed port blocks with a remedy, and no Appium is started instead', async () => {
    const run = await doctor.run(doctor.baseEnv({ PATH: emptyBin, APPIUM_URL: 'http://127.0.0.1:9' }));
    expect(run.marks.appium).toBe('[MISS]');
    expect(run.stdout).toMatch(/nothing answers as Appium at http:\/\/127\.0\.0\.1:9\/status/);
    expect(run.stdout).toMatch(/^ {2}appium: Start Appium .*unset APPIUM_URL/m);
  });

  it('evidence directory not writable (a file stands where its parent should be): evidence blocks', async () => {
    const blocker = path.join(doctor.dir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const run = await doctor.run(
      doctor.baseEnv({
        PATH: emptyBin,
        APPIUM_URL: 'http://127.0.0.1:9',
        ANDROID_MCP_ARTIFACTS_DIR: path.join(blocker, 'artifacts'),
      }),
    );
    expect(run.marks.evidence).toBe('[MISS]');
    expect(run.stdout).toMatch(/^ {2}evidence: .*ANDROID_MCP_ARTIFACTS_DIR/m);
  });
});
