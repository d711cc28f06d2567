/**
 * A stand-in for the harness process in the orphan test: starts a ManagedAppium, prints its
 * pid on stdout, then idles until it is killed (the test SIGKILLs it, so no cleanup runs).
 */
import { ManagedAppium } from '../../src/infrastructure/appium/ManagedAppium.js';
import { findPackageRoot } from '../../src/infrastructure/appium/appiumInstall.js';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const managed = new ManagedAppium({ packageRoot: findPackageRoot(), logger: quiet, androidSdkRoot: null });
const url = await managed.url();
process.stdout.write(`${JSON.stringify({ pid: managed.pid, url })}\n`); // stdout-ok: a test helper's output
setInterval(() => {}, 60_000);
