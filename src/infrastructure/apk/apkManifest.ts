/**
 * Package name and version read from the APK's own AndroidManifest.xml (binary XML) with
 * node-apk (MIT, TypeScript types, one dependency; docs/reference/configuration.md says why this one).
 * It reads from a Buffer, so what is judged is exactly the bytes read once from the file.
 */
/**
 * node-apk is loaded on the first APK, not at start-up (it is a few hundred milliseconds of the
 * server's cold start otherwise). It is CommonJS: its named exports are only reachable through the
 * default import under ESM.
 */
async function apkClass(): Promise<typeof import('node-apk').Apk> {
  const loaded = (await import('node-apk')) as unknown as { default: typeof import('node-apk') };
  return loaded.default.Apk;
}

export interface ApkManifestFacts {
  readonly packageName: string;
  readonly versionName: string | null;
  readonly versionCode: number | null;
}

/** The `PK\x03\x04` of a zip's first local header: an APK is a zip. */
export function looksLikeZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Throws when the bytes are not a zip with a readable AndroidManifest.xml that names a package. */
export async function readApkManifest(bytes: Buffer): Promise<ApkManifestFacts> {
  const Apk = await apkClass();
  const apk = new Apk(bytes);
  try {
    const manifest = await apk.getManifestInfo();
    const packageName = manifest.package;
    if (typeof packageName !== 'string' || packageName === '') throw new Error('the manifest names no package');
    const versionCode = Number.isSafeInteger(manifest.versionCode) ? manifest.versionCode : null;
    const versionName =
      typeof manifest.versionName === 'string' && manifest.versionName !== '' ? manifest.versionName : null;
    return { packageName, versionName, versionCode };
  } finally {
    apk.close();
  }
}
