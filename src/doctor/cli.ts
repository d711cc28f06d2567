/**
 * The `doctor` subcommand: `android-mcp-harness doctor [--package com.example.app]`.
 * Its report is this CLI's intended output, so it goes to stdout; exit 1 when anything blocks.
 */
import { parseArgs } from 'node:util';
import type { AutomationEndpointStatus } from '../domain/automationEndpoint.js';
import type { Logger } from '../domain/ports.js';
import { findPackageRoot } from '../infrastructure/appium/appiumInstall.js';
import { parseEndpointStatus } from '../infrastructure/appium/endpointStatus.js';
import { ManagedAppium } from '../infrastructure/appium/ManagedAppium.js';
import { formatReport, runDoctor, type DoctorOptions } from './doctor.js';
import { execFileRunner } from './processRunner.js';

export const DOCTOR_USAGE = `Usage: android-mcp-harness doctor [--package <application id>]

Checks, all at once and cheapest first, everything a real run needs: Node, the harness's own
dependencies, configuration, the evidence folder, Java (advisory), adb, the device, an optional
target app, and Appium (APPIUM_URL, or the harness's own). Exit code 1 when anything blocks.`;

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** What answers GET <url>/status: Appium, a Selenium Grid in front of it, or null (nothing, or neither). */
export async function endpointStatusAt(url: string, authorization?: string): Promise<AutomationEndpointStatus | null> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/status`, {
      signal: AbortSignal.timeout(5000),
      ...(authorization ? { headers: { Authorization: authorization } } : {}),
    });
    if (!response.ok) return null;
    return parseEndpointStatus(await response.json());
  } catch {
    return null;
  }
}

export function realDoctorOptions(env: NodeJS.ProcessEnv, targetPackage: string | null): DoctorOptions {
  const packageRoot = findPackageRoot();
  return {
    env,
    cwd: process.cwd(),
    packageRoot,
    nodeVersion: process.versions.node,
    runner: execFileRunner,
    targetPackage,
    appiumStatus: endpointStatusAt,
    async tryManagedAppium(androidSdkRoot) {
      const managed = new ManagedAppium({ packageRoot, logger: quiet, androidSdkRoot, env, startTimeoutMs: 60_000 });
      try {
        const url = await managed.url();
        const status = await endpointStatusAt(url);
        const version = status?.kind === 'appium' ? status.version : null;
        if (!version) throw new Error(`it started but ${url}/status does not answer as Appium`);
        return { version };
      } finally {
        await managed.stop();
      }
    },
  };
}

export async function doctorMain(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let targetPackage: string | null;
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { package: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
    });
    if (values.help) {
      process.stdout.write(`${DOCTOR_USAGE}\n`); // stdout-ok: CLI help
      return 0;
    }
    targetPackage = values.package ?? null;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${DOCTOR_USAGE}\n`);
    return 2;
  }
  const results = await runDoctor(realDoctorOptions(env, targetPackage));
  const { lines, blocking } = formatReport(results);
  process.stdout.write(`android-mcp-harness doctor\n${lines.join('\n')}\n`); // stdout-ok: the doctor's report
  return blocking > 0 ? 1 : 0;
}
