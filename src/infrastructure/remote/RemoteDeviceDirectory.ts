import type { DeviceFacts } from '../../domain/devices/identity.js';
import type { ApkRelativePath } from '../../domain/apk/apkArgument.js';
import type { ApkFolder, DeviceDirectory, ListedDevice, PreparedApk } from '../../domain/ports.js';
import { notAvailableRemotely } from './DriverDeviceGateway.js';

/** app_install in remote mode: refused before the APK is even read, so nothing reaches the device. */
export class RemoteApkFolder implements ApkFolder {
  prepare(_relativePath: ApkRelativePath): Promise<PreparedApk> {
    return Promise.reject(
      notAvailableRemotely(
        'app_install',
        'Install the app through your Grid or device farm (its app upload and the appium:app capability in ANDROID_MCP_APPIUM_CAPS), then use app_open.',
      ),
    );
  }
}

/**
 * device_list in remote mode: the list is adb's, and there is no adb for the device.
 * Discovery does not use it (remote mode's resolver has no directory: the one configured device).
 */
export class RemoteDeviceDirectory implements DeviceDirectory {
  list(): Promise<readonly ListedDevice[]> {
    return Promise.reject(
      notAvailableRemotely(
        'device_list',
        "Use emulator_get_status for the device of this session, and your Grid's or device farm's console for the others.",
      ),
    );
  }

  facts(_serial: string): Promise<DeviceFacts> {
    return Promise.reject(notAvailableRemotely('Reading the device properties', 'Use emulator_get_status.'));
  }

  holderOf(_identityKey: string): null {
    return null;
  }
}
