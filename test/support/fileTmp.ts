/**
 * Vitest setup file: each test file gets a temp directory of its own inside the run's
 * (suiteTmp.ts). Integration files run two at a time, and everything a file starts (its
 * harness processes, adb server, Appium) meets at the cross-process device lock in the temp
 * directory: a directory per file keeps two files' virtual devices, which share an identity,
 * from taking each other's lock.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

const suite = process.env.AMH_SUITE_TMP;
if (suite) process.env.TMPDIR = mkdtempSync(join(suite, 'file-'));
