/**
 * The package manager's side of a streamed `adb install`: the bytes adb sent through
 * `abb_exec:package\0install\0-r\0-S\0<size>` are judged as Android's PackageManagerService does
 * before anything is installed, and the answer is the status line PackageManagerShellCommand
 * prints (`Success` or `Failure [CODE: detail]`). docs/internals/device-quirks.md cites the sources.
 *
 * The device cannot run the APK's code. The scenario is its model of the apps' code: a package
 * the scenario declares (even one uninstalled since) comes back with the scenario's behaviour
 * (io.appium.settings stays a trampoline), only its version taken from the APK. A package the
 * scenario does not know gets a minimal screen for its launcher activity (its label), so
 * `am start` and app_open can show it.
 */
import nodeApk from 'node-apk';
import { C, appWindow, node } from '../scenario/builders.js';
import type { PackageSpec, ScreenSpec } from '../scenario/model.js';

// node-apk is CommonJS: its named exports are only reachable through the default import under ESM.
const { Apk } = nodeApk;

export interface PackageInstallTarget {
  readonly installed: Map<string, PackageSpec>;
  /** The scenario's own packages: how their code behaves, whether installed now or not. */
  readonly known: ReadonlyMap<string, PackageSpec>;
  addScreen(spec: ScreenSpec): void;
  /** Installing over a package kills its processes (as `am force-stop`). */
  stopPackage(pkg: string): void;
}

interface ApkFacts {
  readonly packageName: string;
  readonly versionCode: number;
  readonly versionName: string | null;
  readonly label: string | null;
  readonly launcherActivity: string | null;
}

interface XmlLike {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly children: Readonly<Record<string, readonly XmlLike[] | undefined>>;
}

function named(items: readonly XmlLike[] | undefined, name: string): boolean {
  return (items ?? []).some((item) => item.attributes.name === name);
}

/** The first activity (or alias) with a MAIN/LAUNCHER intent filter, as the launcher resolves it. */
function launcherActivity(manifest: XmlLike): string | null {
  const application = manifest.children.application?.[0];
  if (!application) return null;
  for (const activity of [
    ...(application.children.activity ?? []),
    ...(application.children['activity-alias'] ?? []),
  ]) {
    const launchable = (activity.children['intent-filter'] ?? []).some(
      (filter) =>
        named(filter.children.action, 'android.intent.action.MAIN') &&
        named(filter.children.category, 'android.intent.category.LAUNCHER'),
    );
    const name = activity.attributes.name;
    if (launchable && typeof name === 'string' && name !== '') return name;
  }
  return null;
}

async function readFacts(apk: Buffer): Promise<ApkFacts> {
  const reader = new Apk(apk);
  try {
    const manifest = await reader.getManifestInfo();
    const label = manifest.applicationLabel;
    return {
      packageName: manifest.package,
      versionCode: Number.isSafeInteger(manifest.versionCode) ? manifest.versionCode : 0,
      versionName: typeof manifest.versionName === 'string' ? manifest.versionName : null,
      label: typeof label === 'string' && label !== '' ? label : null,
      launcherActivity: launcherActivity(manifest.raw as unknown as XmlLike),
    };
  } finally {
    reader.close();
  }
}

function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
}

/**
 * Whether the APK carries a signature at all: an APK Signing Block (v2+: its magic ends right
 * before the central directory) or a v1 signature file (META-INF/*.RSA|DSA|EC). The signature is
 * not verified (a known difference, docs/internals/device-quirks.md); an unsigned APK is refused as Android does.
 */
function isSigned(apk: Buffer): boolean {
  const eocd = apk.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > apk.length) return false;
  const centralDirectory = apk.readUInt32LE(eocd + 16);
  if (
    centralDirectory >= 16 &&
    centralDirectory <= apk.length &&
    apk.toString('latin1', centralDirectory - 16, centralDirectory) === 'APK Sig Block 42'
  )
    return true;
  return /META-INF\/[^/\0]+\.(?:RSA|DSA|EC)/.test(apk.toString('latin1', Math.min(centralDirectory, apk.length), eocd));
}

function minimalScreen(id: string, facts: ApkFacts, activity: string): ScreenSpec {
  const title = facts.label ?? facts.packageName;
  return {
    id,
    package: facts.packageName,
    activity,
    root: appWindow([
      node(C.text, [63, 300, 1017, 420], { key: 'title', text: title, resourceId: `${facts.packageName}:id/title` }),
    ]),
  };
}

/** Installs `apk` as `pm install` with `args` would; returns the status line. `session` names the staging dir. */
export async function installStreamedApk(
  args: readonly string[],
  apk: Buffer,
  target: PackageInstallTarget,
  session: number,
): Promise<string> {
  const base = `/data/app/vmdl${session}.tmp/base.apk`;
  if (!isZip(apk))
    return `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${base}: Failed to load asset path ${base}]\n`;
  let facts: ApkFacts;
  try {
    facts = await readFacts(apk);
  } catch (error) {
    const missing = error instanceof Error && /AndroidManifest\.xml/.test(error.message);
    return missing
      ? `Failure [INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: Failed to parse ${base}: AndroidManifest.xml]\n`
      : `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${base}: Failed to load asset path ${base}]\n`;
  }
  if (!isSigned(apk)) {
    return `Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES: Failed to collect certificates from ${base}: Attempt to get length of null array]\n`;
  }
  const existing = target.installed.get(facts.packageName);
  const allowDowngrade = args.includes('-d');
  if (existing && !allowDowngrade && (existing.versionCode ?? 0) > facts.versionCode) {
    return `Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code ${facts.versionCode} is older than current ${existing.versionCode ?? 0}]\n`;
  }
  if (existing) {
    target.stopPackage(facts.packageName);
    target.installed.set(facts.packageName, {
      ...existing,
      versionCode: facts.versionCode,
      ...(facts.versionName ? { versionName: facts.versionName } : {}),
    });
    return 'Success\n';
  }
  const known = target.known.get(facts.packageName);
  if (known) {
    target.installed.set(facts.packageName, {
      ...known,
      versionCode: facts.versionCode,
      ...(facts.versionName ? { versionName: facts.versionName } : {}),
    });
    return 'Success\n';
  }
  const screenId = `apk:${facts.packageName}`;
  const spec: PackageSpec = {
    name: facts.packageName,
    thirdParty: true,
    versionCode: facts.versionCode,
    ...(facts.versionName ? { versionName: facts.versionName } : {}),
    ...(facts.label ? { label: facts.label } : {}),
    ...(facts.launcherActivity ? { launcher: { activity: facts.launcherActivity, screen: screenId } } : {}),
  };
  if (facts.launcherActivity) target.addScreen(minimalScreen(screenId, facts, facts.launcherActivity));
  target.installed.set(facts.packageName, spec);
  return 'Success\n';
}
