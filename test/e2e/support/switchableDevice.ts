/**
 * One adb transport in front of a virtual device that can be replaced: the sweep shows dump
 * after dump without reconnecting adb or restarting Appium. Only switch while nothing is
 * talking to the device (no open flow, no call in progress): every service is forwarded
 * to the device current at the moment it is opened.
 */
import type { Duplex } from 'node:stream';
import type {
  DeviceConnectionState,
  DeviceLogKind,
  DeviceServices,
  ShellIo,
  ShellOrigin,
  VirtualFileStat,
} from '../../../packages/virtual-device/src/contracts.js';
import type { VirtualDevice } from '../../../packages/virtual-device/src/device/index.js';

export class SwitchableDevice implements DeviceServices {
  constructor(private target: VirtualDevice) {}

  get current(): VirtualDevice {
    return this.target;
  }

  switchTo(next: VirtualDevice): void {
    this.target = next;
  }

  bannerProperties(): { name: string; model: string; device: string } {
    return this.target.bannerProperties();
  }
  isOnline(): boolean {
    return this.target.isOnline();
  }
  runShell(commandLine: string, io: ShellIo, origin: ShellOrigin): Promise<number> {
    return this.target.runShell(commandLine, io, origin);
  }
  openTcp(port: number): Duplex | null {
    return this.target.openTcp(port);
  }
  statFile(path: string): VirtualFileStat | null {
    return this.target.statFile(path);
  }
  readFile(path: string): Buffer | null {
    return this.target.readFile(path);
  }
  writeFile(path: string, bytes: Buffer, mode: number): void {
    this.target.writeFile(path, bytes, mode);
  }
  installPackage(args: readonly string[], apk: Buffer): string | Promise<string> {
    return this.target.installPackage(args, apk);
  }
  runAbb(args: readonly string[]): string {
    return this.target.runAbb(args);
  }
  log(kind: DeviceLogKind, detail: string): void {
    this.target.log(kind, detail);
  }
  legacyPty(): boolean {
    return this.target.legacyPty();
  }
  connectionState(): DeviceConnectionState {
    return this.target.connectionState();
  }
}
