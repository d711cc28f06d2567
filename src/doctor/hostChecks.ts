/** The checks of the machine itself: Node, the harness's own dependencies, the evidence folder, Java. */
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { findInstalledPackage } from '../infrastructure/appium/appiumInstall.js';
import { timeout, type DoctorOptions } from './checkContext.js';
import { parseJavaVersion } from './javaVersion.js';
import type { CheckResult } from './report.js';

export const MINIMUM_NODE = [20, 19, 0] as const;
export const MINIMUM_JAVA = 17;

export const CORE_DEPENDENCIES = ['@modelcontextprotocol/sdk', 'webdriverio', 'zod'] as const;
export const APPIUM_DEPENDENCIES = ['appium', 'appium-uiautomator2-driver'] as const;

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export function checkNode(version: string): CheckResult {
  const parts = version
    .replace(/^v/, '')
    .split('.')
    .map((p) => Number.parseInt(p, 10));
  const wanted = MINIMUM_NODE.join('.');
  if (parts.some((p) => Number.isNaN(p)) || compareVersions(parts, MINIMUM_NODE) < 0) {
    return {
      name: 'node',
      status: 'miss',
      summary: `Node ${version} is older than ${wanted}`,
      remedy: `Install Node ${wanted} or newer (Node 20 LTS or 22), then run the harness with it.`,
    };
  }
  return { name: 'node', status: 'ok', summary: `Node ${version.replace(/^v/, '')} (needs ≥ ${wanted})` };
}

export function checkDependencies(packageRoot: string, appiumUrlExplicit: boolean): CheckResult {
  const found: string[] = [];
  /** Notes each installed package with its version in `found`; returns the names not installed. */
  const lookUp = (names: readonly string[]): string[] => {
    const absent: string[] = [];
    for (const name of names) {
      const pkg = findInstalledPackage(name, packageRoot);
      if (pkg) found.push(`${name} ${pkg.version}`);
      else absent.push(name);
    }
    return absent;
  };
  const missing = lookUp(CORE_DEPENDENCIES);
  const appiumMissing = lookUp(APPIUM_DEPENDENCIES);
  // Appium itself is only needed here when the harness runs it (APPIUM_URL unset).
  const blocking = appiumUrlExplicit ? missing : [...missing, ...appiumMissing];
  if (blocking.length > 0) {
    return {
      name: 'dependencies',
      status: 'miss',
      summary: `missing: ${blocking.join(', ')}`,
      remedy:
        'Reinstall the harness: `npm ci` in a checkout (then `npm run build`), or install its tarball again (`npm install -g ./android-mcp-harness-<version>.tgz`; the package is not on npm yet, see docs/guide/usage.md).',
    };
  }
  const note =
    appiumMissing.length > 0 ? ` (not installed: ${appiumMissing.join(', ')}; fine while APPIUM_URL is set)` : '';
  return { name: 'dependencies', status: 'ok', summary: `${found.join(', ')}${note}` };
}

export async function checkEvidenceDir(dir: string): Promise<CheckResult> {
  const probe = path.join(dir, `.doctor-${process.pid}-${Date.now()}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    await writeFile(probe, 'probe', { flag: 'wx' });
    await rm(probe, { force: true });
    return { name: 'evidence', status: 'ok', summary: `${dir} is writable` };
  } catch (error) {
    await rm(probe, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return {
      name: 'evidence',
      status: 'miss',
      summary: `${dir} is not writable (${code})`,
      remedy:
        'Make the directory writable, or set ANDROID_MCP_ARTIFACTS_DIR to a folder the harness may write (screenshots are saved there).',
    };
  }
}

/**
 * Java is advisory: the harness never passes an `app` capability, so the UiAutomator2 driver
 * never signs or inspects an APK with apksigner/java; its server APKs ship pre-signed and are
 * installed with plain `adb install`. Appium's own `driver doctor` still lists JAVA_HOME as
 * required, and installing apps through Appium yourself does need it.
 */
export async function checkJava(options: DoctorOptions): Promise<CheckResult> {
  const javaHome = options.env.JAVA_HOME?.trim();
  const java = javaHome ? path.join(javaHome, 'bin', process.platform === 'win32' ? 'java.exe' : 'java') : 'java';
  const outcome = await options.runner.run(java, ['-XX:-UsePerfData', '-version'], {
    env: options.env,
    timeoutMs: timeout(options),
  });
  const advice = `Not needed for the harness's own path (it never asks Appium to install or sign an APK); install a JDK ≥ ${MINIMUM_JAVA} and set JAVA_HOME if you use Appium's \`app\` capability or \`appium driver doctor uiautomator2\`.`;
  if (outcome.failure === 'not-found' || (javaHome && outcome.exitCode === null)) {
    return {
      name: 'java',
      status: 'advisory',
      summary: `no Java found${javaHome ? ' under JAVA_HOME' : ' on PATH'} (advisory)`,
      remedy: advice,
    };
  }
  const version = parseJavaVersion(`${outcome.stderr}\n${outcome.stdout}`);
  if (!version) {
    return {
      name: 'java',
      status: 'advisory',
      summary: 'java runs but its version could not be read (advisory)',
      remedy: advice,
    };
  }
  if (version.major < MINIMUM_JAVA) {
    return {
      name: 'java',
      status: 'advisory',
      summary: `Java ${version.raw} is older than ${MINIMUM_JAVA} (advisory)`,
      remedy: advice,
    };
  }
  return {
    name: 'java',
    status: 'ok',
    summary: `Java ${version.raw} (major ${version.major}; optional for the harness)`,
  };
}
