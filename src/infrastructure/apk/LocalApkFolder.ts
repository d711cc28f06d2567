/**
 * The folder the user allowed for app_install (ANDROID_MCP_APK_DIR), read so that what adb
 * installs is exactly what was checked:
 *
 * 1. the folder and the file are resolved with realpath (every symlink followed) and the file
 *    must still be inside the folder: a symlink that leads out is refused;
 * 2. the file is opened once (O_NOFOLLOW, O_NONBLOCK: a FIFO cannot block the call), and the
 *    open descriptor must be a regular file within the size bound, and (Linux) still the
 *    resolved path: a component swapped for a symlink between the check and the open is caught;
 * 3. its bytes are read from that descriptor and judged (a zip with an AndroidManifest.xml that
 *    names a valid package), then written to a private folder (0700) that adb is given.
 *
 * So a file changed in the allowed folder after the check never reaches the device (no TOCTOU):
 * adb reads the private copy, which only this process can write. Messages never name host paths.
 */
import { constants, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApkRelativePath } from '../../domain/apk/apkArgument.js';
import { HarnessError } from '../../domain/errors.js';
import type { ApkFolder, PreparedApk } from '../../domain/ports.js';
import type { PackageName } from '../../domain/validation.js';
import { isValidPackageName } from '../adb/parsers.js';
import { looksLikeZip, readApkManifest } from './apkManifest.js';

/** Larger than any APK a test build makes (Play's own base-APK limit is 200 MB); the file is read into memory once. */
export const MAX_APK_BYTES = 256 * 1024 * 1024;

export const APK_DIR_UNSET_MESSAGE =
  "app_install is off: no APK folder is allowed. Set ANDROID_MCP_APK_DIR to the folder that holds your builds (e.g. ANDROID_MCP_APK_DIR=/home/me/app/build/outputs/apk/debug) in the MCP client's configuration and restart the server; app_install then takes file names inside it.";

function refuse(problem: string): HarnessError {
  return new HarnessError('INVALID_ARGUMENT', `Invalid apk: ${problem}`);
}

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

export class LocalApkFolder implements ApkFolder {
  constructor(
    /** ANDROID_MCP_APK_DIR as configured (absolute), or null when unset. */
    private readonly directory: string | null,
    private readonly maxBytes: number = MAX_APK_BYTES,
    private readonly tempRoot: string = os.tmpdir(),
  ) {}

  async prepare(relativePath: ApkRelativePath): Promise<PreparedApk> {
    if (this.directory === null) throw new HarnessError('INVALID_ARGUMENT', APK_DIR_UNSET_MESSAGE);
    const root = await this.realFolder(this.directory);
    const shown = `'${relativePath.slice(0, 80)}'`;
    let real: string;
    try {
      real = await fs.realpath(path.resolve(root, relativePath));
    } catch {
      throw refuse(
        `${shown} does not exist in the APK folder (ANDROID_MCP_APK_DIR). List the folder and give the file name of a built APK.`,
      );
    }
    if (!inside(root, real))
      throw refuse(
        `${shown} leads outside the APK folder (a symlink out of it); only files inside ANDROID_MCP_APK_DIR are installed.`,
      );
    const bytes = await this.readOnce(real, shown);
    if (!looksLikeZip(bytes)) throw refuse(`${shown} is not an APK (not a zip file). Give a built .apk file.`);
    let facts;
    try {
      facts = await readApkManifest(bytes);
    } catch {
      throw refuse(`${shown} is not an installable APK (no readable AndroidManifest.xml). Give a built .apk file.`);
    }
    if (!isValidPackageName(facts.packageName))
      throw refuse(`${shown} names a package that is not a valid Android package name.`);
    const hostPath = await this.privateCopy(bytes);
    return {
      packageName: facts.packageName as PackageName,
      versionName: facts.versionName,
      versionCode: facts.versionCode,
      sizeBytes: bytes.length,
      hostPath,
      release: () => fs.rm(path.dirname(hostPath), { recursive: true, force: true }),
    };
  }

  private async realFolder(directory: string): Promise<string> {
    try {
      const root = await fs.realpath(directory);
      if ((await fs.stat(root)).isDirectory()) return root;
    } catch {
      // fall through to the one message
    }
    throw new HarnessError(
      'INVALID_ARGUMENT',
      "The APK folder (ANDROID_MCP_APK_DIR) does not exist or is not a folder. Fix the variable in the MCP client's configuration and restart the server.",
    );
  }

  private async readOnce(real: string, shown: string): Promise<Buffer> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      throw refuse(`${shown} cannot be opened (a symlink, or no read permission).`);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw refuse(`${shown} is not a regular file.`);
      if (stat.size === 0) throw refuse(`${shown} is empty.`);
      if (stat.size > this.maxBytes)
        throw refuse(`${shown} is larger than ${Math.round(this.maxBytes / 1024 / 1024)} MB.`);
      if (process.platform === 'linux') {
        // What the descriptor really is, whatever happened to the path since realpath.
        const opened = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => real);
        if (opened !== real) throw refuse(`${shown} changed while it was being opened; retry.`);
      }
      const bytes = Buffer.alloc(stat.size);
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, offset);
        if (bytesRead === 0) throw refuse(`${shown} shrank while it was read; retry once the build has finished.`);
        offset += bytesRead;
      }
      return bytes;
    } finally {
      await handle.close();
    }
  }

  /** The bytes in a folder only this user can enter; adb insists on a name ending .apk. */
  private async privateCopy(bytes: Buffer): Promise<string> {
    const dir = await fs.mkdtemp(path.join(this.tempRoot, 'android-mcp-apk-'));
    await fs.chmod(dir, 0o700);
    const file = path.join(dir, 'base.apk');
    await fs.writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
    return file;
  }
}
