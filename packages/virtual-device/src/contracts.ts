/**
 * The seam between the ADB transport (src/adb) and the device's
 * behaviour (everything else under src/). The transport knows
 * packets, streams and services; the device knows screens, shell commands and
 * the UiAutomator2 server. Neither imports the other's internals.
 */
import type { Duplex } from 'node:stream';

/** Streams of one running shell command. */
export interface ShellIo {
  /** Bytes for the client's stdout (stdout and stderr are merged when the client has no shell_v2). */
  stdout(chunk: Buffer | string): void;
  stderr(chunk: Buffer | string): void;
  /** Fires when the client goes away (host CLSE) so a long-lived command (logcat, am instrument) ends. */
  readonly aborted: AbortSignal;
  /** Standard input the client wrote, if any (shell_v2 id 0 or raw WRTE on `shell:`). */
  onStdin(listener: (chunk: Buffer) => void): void;
}

/** Which service and how the client asked, for the device log. */
export type ShellOrigin = 'shell' | 'shell_v2' | 'exec';

export interface VirtualFileStat {
  readonly mode: number;
  readonly size: number;
  readonly mtimeSec: number;
}

/** What the transport asks of the device. */
export interface DeviceServices {
  /** Values for the CNXN banner: `device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`. */
  bannerProperties(): { name: string; model: string; device: string };
  /** True while the device should answer at all (fault 'offline' makes it false: the transport drops the connection). */
  isOnline(): boolean;
  /** Runs a command line as Android's /system/bin/sh would; resolves with its exit code. */
  runShell(commandLine: string, io: ShellIo, origin: ShellOrigin): Promise<number>;
  /** A stream into a device-side TCP port (`tcp:6790`), or null to refuse it (nothing listening). */
  openTcp(port: number): Duplex | null;
  /** The virtual file system used by sync: (push, pull, stat). */
  statFile(path: string): VirtualFileStat | null;
  readFile(path: string): Buffer | null;
  writeFile(path: string, bytes: Buffer, mode: number): void;
  /** `abb_exec:package\0install…` with the APK bytes; returns the text to send back ("Success\n"). */
  installPackage(args: readonly string[], apk: Buffer): string | Promise<string>;
  /** `abb_exec:package\0uninstall\0pkg` and other abb commands. */
  runAbb(args: readonly string[]): string;
  /** Appends to the ordered device log (every service opened is logged). */
  log(kind: DeviceLogKind, detail: string): void;
  /**
   * Optional trait (line endings): behave like a device without shell_v2 (before
   * Android 7). The CNXN banner then omits `shell_v2`, so adb falls back to `shell:<cmd>`
   * (no exit codes), and that output passes through a PTY: every `\n` reaches the client as
   * `\r\n`. The banner is read once per connection (drop connections after toggling it);
   * the PTY translation is decided when each stream opens. Absent means false.
   */
  legacyPty?(): boolean;
  /**
   * Optional (device states): what the adb server should list this device as.
   * 'unauthorized' answers CNXN with an AUTH challenge that is never accepted (the
   * "allow USB debugging?" prompt nobody confirms); 'recovery' sends a `recovery::` banner.
   * Read once per connection. Absent means 'device'.
   */
  connectionState?(): DeviceConnectionState;
  /**
   * Optional: the transport that served the device has closed, and the device is put away. It ends
   * the device's own threads (the ones that draw captures); the device stays usable.
   */
  close?(): Promise<void>;
}

export type DeviceConnectionState = 'device' | 'unauthorized' | 'recovery';

export type DeviceLogKind =
  | 'connect'
  | 'service'
  | 'shell'
  | 'unknown-command'
  | 'sync'
  | 'abb'
  | 'tcp'
  | 'uia2'
  | 'click'
  | 'long-click'
  | 'input'
  | 'screen'
  | 'fault';

export interface DeviceLogEntry {
  readonly seq: number;
  /** ms since the device started. */
  readonly atMs: number;
  readonly kind: DeviceLogKind;
  readonly detail: string;
}
