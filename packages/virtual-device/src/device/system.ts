/**
 * The non-UI state of the device: properties, `settings`, the file system, installed
 * packages and the process table.
 */
import type { PackageSpec } from '../scenario/model.js';
import type { VirtualFileStat } from '../contracts.js';

/** The panel's own density (`wm density` prints it as `Physical density`). */
export const PHYSICAL_DENSITY = 420;

export interface VirtualFile {
  data: Buffer;
  mode: number;
  mtimeSec: number;
}

export interface ProcessRow {
  readonly user: string;
  readonly pid: number;
  readonly ppid: number;
  readonly name: string;
}

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFCHR = 0o020000;

export const DEFAULT_PROPS: Readonly<Record<string, string>> = {
  'ro.build.version.sdk': '34',
  'ro.build.version.release': '14',
  'ro.build.version.release_or_codename': '14',
  'ro.build.version.codename': 'REL',
  'ro.build.version.security_patch': '2024-09-05',
  'ro.build.id': 'UP1A.231005.007',
  'ro.build.type': 'userdebug',
  'ro.build.tags': 'test-keys',
  'ro.build.fingerprint': 'google/sdk_gphone64_x86_64/emu64xa:14/UP1A.231005.007/10754064:userdebug/test-keys',
  'ro.product.model': 'Virtual Pixel 7',
  'ro.product.name': 'virtual_pixel',
  'ro.product.device': 'virtual_pixel',
  'ro.product.brand': 'google',
  'ro.product.manufacturer': 'Google',
  'ro.product.cpu.abi': 'x86_64',
  'ro.product.cpu.abilist': 'x86_64,arm64-v8a',
  'ro.product.locale': 'en-US',
  'ro.hardware': 'virtual',
  'ro.serialno': 'VIRTUAL0001',
  'ro.boot.serialno': 'VIRTUAL0001',
  'ro.sf.lcd_density': '420',
  'ro.kernel.qemu': '0',
  'ro.debuggable': '1',
  'ro.secure': '0',
  'sys.boot_completed': '1',
  'dev.bootcomplete': '1',
  'init.svc.bootanim': 'stopped',
  'persist.sys.locale': 'en-US',
  'persist.sys.timezone': 'Etc/UTC',
  'service.adb.root': '0',
};

export class SystemState {
  readonly props = new Map<string, string>(Object.entries(DEFAULT_PROPS));
  readonly settings = {
    global: new Map<string, string>([
      ['adb_enabled', '1'],
      ['airplane_mode_on', '0'],
      ['window_animation_scale', '1.0'],
      ['transition_animation_scale', '1.0'],
      ['animator_duration_scale', '1.0'],
      ['device_provisioned', '1'],
    ]),
    secure: new Map<string, string>([
      ['android_id', '5f2c0a9e3b7d41c8'],
      ['default_input_method', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'],
      ['enabled_input_methods', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'],
      ['location_mode', '3'],
    ]),
    system: new Map<string, string>([
      ['screen_brightness', '102'],
      ['screen_off_timeout', '600000'],
      ['font_scale', '1.0'],
    ]),
  };
  private readonly files = new Map<string, VirtualFile>();
  private readonly dirs = new Set<string>([
    '/',
    '/sdcard',
    '/storage',
    '/storage/emulated',
    '/storage/emulated/0',
    '/data',
    '/data/local',
    '/data/local/tmp',
    '/system',
    '/system/bin',
    '/dev',
    '/proc',
    '/vendor',
  ]);
  readonly installed = new Map<string, PackageSpec>();
  densityOverride: number | null = null;
  sizeOverride: string | null = null;
  /** io.appium.settings runs a foreground service once its activity has been started. */
  settingsHelperForeground = false;
  private nextPid = 4000;
  private readonly extraProcesses: ProcessRow[] = [];
  /** Rows that always exist (init, zygote, system_server …). */
  private readonly baseProcesses: ProcessRow[] = [
    { user: 'root', pid: 1, ppid: 0, name: 'init' },
    { user: 'root', pid: 2, ppid: 0, name: '[kthreadd]' },
    { user: 'logd', pid: 212, ppid: 1, name: 'logd' },
    { user: 'root', pid: 298, ppid: 1, name: 'zygote64' },
    { user: 'system', pid: 362, ppid: 1, name: 'surfaceflinger' },
    { user: 'system', pid: 541, ppid: 298, name: 'system_server' },
    { user: 'u0_a150', pid: 812, ppid: 298, name: 'com.android.systemui' },
    { user: 'u0_a133', pid: 1024, ppid: 298, name: 'com.google.android.inputmethod.latin' },
    { user: 'u0_a142', pid: 1077, ppid: 298, name: 'com.google.android.apps.nexuslauncher' },
    { user: 'shell', pid: 1490, ppid: 1, name: 'adbd' },
  ];

  constructor(
    packages: readonly PackageSpec[],
    private readonly nowSec: () => number,
  ) {
    for (const p of packages) this.installed.set(p.name, p);
  }

  // --- files -------------------------------------------------------------

  private static normalize(path: string): string {
    const parts: string[] = [];
    for (const part of path.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') parts.pop();
      else parts.push(part);
    }
    const joined = `/${parts.join('/')}`;
    // /sdcard is a symlink to /storage/emulated/0 on every modern device.
    return joined === '/sdcard' || joined.startsWith('/sdcard/')
      ? joined.replace('/sdcard', '/storage/emulated/0')
      : joined;
  }

  private static parent(path: string): string {
    const i = path.lastIndexOf('/');
    return i <= 0 ? '/' : path.slice(0, i);
  }

  stat(path: string): VirtualFileStat | null {
    const p = SystemState.normalize(path);
    if (p === '/dev/null' || p === '/dev/tty') return { mode: S_IFCHR | 0o666, size: 0, mtimeSec: 0 };
    if (this.dirs.has(p) || path === '/sdcard') return { mode: S_IFDIR | 0o771, size: 4096, mtimeSec: 0 };
    const f = this.files.get(p);
    return f ? { mode: S_IFREG | (f.mode & 0o7777), size: f.data.length, mtimeSec: f.mtimeSec } : null;
  }

  isDirectory(path: string): boolean {
    return this.dirs.has(SystemState.normalize(path));
  }

  readFile(path: string): Buffer | null {
    const p = SystemState.normalize(path);
    if (p === '/dev/null') return Buffer.alloc(0);
    return this.files.get(p)?.data ?? null;
  }

  /** Returns an error text or null. */
  writeFile(path: string, data: Buffer, options: { append?: boolean; mode?: number } = {}): string | null {
    const p = SystemState.normalize(path);
    if (p === '/dev/null') return null;
    if (this.dirs.has(p)) return 'Is a directory';
    if (!this.dirs.has(SystemState.parent(p))) return 'No such file or directory';
    const existing = this.files.get(p);
    const bytes = options.append && existing ? Buffer.concat([existing.data, data]) : data;
    this.files.set(p, { data: bytes, mode: options.mode ?? existing?.mode ?? 0o644, mtimeSec: this.nowSec() });
    return null;
  }

  mkdir(path: string, parents: boolean): string | null {
    const p = SystemState.normalize(path);
    if (this.dirs.has(p)) return parents ? null : 'File exists';
    if (this.files.has(p)) return 'File exists';
    if (!this.dirs.has(SystemState.parent(p))) {
      if (!parents) return 'No such file or directory';
      const err = this.mkdir(SystemState.parent(p), true);
      if (err) return err;
    }
    this.dirs.add(p);
    return null;
  }

  /** Removes a file (or a directory tree with `recursive`); returns an error text or null. */
  remove(path: string, recursive: boolean): string | null {
    const p = SystemState.normalize(path);
    if (this.files.delete(p)) return null;
    if (this.dirs.has(p)) {
      if (!recursive) return 'Is a directory';
      for (const f of [...this.files.keys()]) if (f.startsWith(`${p}/`)) this.files.delete(f);
      for (const d of [...this.dirs]) if (d === p || d.startsWith(`${p}/`)) this.dirs.delete(d);
      return null;
    }
    return 'No such file or directory';
  }

  /** Paths matching a simple `*` glob (for `rm -f dir/*`). */
  glob(pattern: string): string[] {
    const p = SystemState.normalize(pattern);
    const re = new RegExp(
      `^${p
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    );
    return [...this.files.keys(), ...this.dirs].filter((f) => re.test(f));
  }

  list(path: string): string[] | null {
    const p = SystemState.normalize(path);
    if (!this.dirs.has(p)) return null;
    const prefix = p === '/' ? '/' : `${p}/`;
    const names = new Set<string>();
    for (const f of [...this.files.keys(), ...this.dirs]) {
      if (f.startsWith(prefix) && f !== p) {
        const rest = f.slice(prefix.length);
        if (rest !== '' && !rest.includes('/')) names.add(rest);
      }
    }
    return [...names].sort();
  }

  // --- settings ----------------------------------------------------------

  settingsNamespace(name: string): Map<string, string> | null {
    return name === 'global' || name === 'secure' || name === 'system' ? this.settings[name] : null;
  }

  density(): number {
    return this.densityOverride ?? PHYSICAL_DENSITY;
  }

  /**
   * ViewConfiguration.getLongPressTimeout(): the secure setting `long_press_timeout` (the
   * accessibility "Touch & hold delay") when set, else the platform default, 400 ms on the
   * releases this device models by default and 500 ms on older ones (docs/internals/device-quirks.md).
   */
  longPressTimeoutMs(): number {
    const set = Number.parseInt(this.settings.secure.get('long_press_timeout') ?? '', 10);
    if (Number.isFinite(set) && set > 0) return set;
    const sdk = Number.parseInt(this.props.get('ro.build.version.sdk') ?? '34', 10);
    return sdk >= 31 ? 400 : 500;
  }

  // --- processes -----------------------------------------------------------

  spawnProcess(name: string, user = 'u0_a200'): ProcessRow {
    const row: ProcessRow = { user, pid: this.nextPid++, ppid: 298, name };
    this.extraProcesses.push(row);
    return row;
  }

  killProcess(pid: number): boolean {
    const i = this.extraProcesses.findIndex((p) => p.pid === pid);
    if (i < 0) return false;
    this.extraProcesses.splice(i, 1);
    return true;
  }

  killProcessesNamed(name: string): number {
    let count = 0;
    for (const p of this.extraProcesses.filter((row) => row.name === name)) count += this.killProcess(p.pid) ? 1 : 0;
    return count;
  }

  /** App processes (package → pid), each with its own pid for as long as it lives, as zygote forks them. */
  private readonly apps = new Map<string, number>();
  private nextAppPid = 5000;

  /** Whether `name` is one of the processes that always run (the launcher, System UI …). */
  isBaseProcess(name: string): boolean {
    return this.baseProcesses.some((r) => r.name === name);
  }

  /** The pid of the package's running app process, or null. */
  appPid(pkg: string): number | null {
    return this.apps.get(pkg) ?? this.baseProcesses.find((r) => r.name === pkg)?.pid ?? null;
  }

  /** Forks the package's app process (a new pid) unless it runs; returns its pid and whether it is new. */
  startApp(pkg: string): { pid: number; started: boolean } {
    const known = this.appPid(pkg);
    if (known !== null) return { pid: known, started: false };
    const pid = this.nextAppPid;
    this.nextAppPid += 7;
    this.apps.set(pkg, pid);
    return { pid, started: true };
  }

  /** The app process ends (it left the screen stack, was force-stopped or crashed). */
  endApp(pkg: string): void {
    this.apps.delete(pkg);
  }

  runningApps(): string[] {
    return [...this.apps.keys()];
  }

  processes(appPackagesRunning: readonly string[]): ProcessRow[] {
    const rows = [...this.baseProcesses];
    for (const pkg of appPackagesRunning) {
      if (!rows.some((r) => r.name === pkg) && !this.extraProcesses.some((r) => r.name === pkg))
        rows.push({ user: 'u0_a160', pid: this.startApp(pkg).pid, ppid: 298, name: pkg });
    }
    if (this.settingsHelperForeground) rows.push({ user: 'u0_a190', pid: 3100, ppid: 298, name: 'io.appium.settings' });
    return rows.concat(this.extraProcesses);
  }
}
