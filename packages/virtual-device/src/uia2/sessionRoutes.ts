/**
 * The routes under `/session/:id` that are not one element's: the device and its display
 * (size, density, orientation, keyboard, notifications), settings, finds from the root, the page
 * source and screenshots, and input; element routes are handed on to ElementRoutes.
 */
import { flatten } from '../device/uiTree.js';
import { toPageSource } from '../device/serialize.js';
import { STATUS_BAR_HEIGHT } from '../scenario/model.js';
import type { ActionRoutes } from './actionRoutes.js';
import { serverBounds } from './bounds.js';
import type { Uia2Device } from './device.js';
import type { ElementRoutes } from './elementRoutes.js';
import type { GestureName, GestureRoutes } from './gestureRoutes.js';
import {
  HttpError,
  invalidArgument,
  invalidElementState,
  noSuchElement,
  unableToCaptureScreen,
  unknownCommand,
} from './errors.js';
import type { IdleWaits } from './idleWaits.js';
import type { Json, Session } from './session.js';
import type { Uia2Settings } from './settings.js';

/** The gesture endpoints besides long_click (AppiumServlet registers each under /appium/gestures/). */
const GESTURES = /^POST \/appium\/gestures\/(click|double_click|drag|fling|pinch_open|pinch_close|scroll|swipe)$/;

export class SessionRoutes {
  constructor(
    private readonly device: Uia2Device,
    private readonly settings: Uia2Settings,
    private readonly idle: IdleWaits,
    private readonly elements: ElementRoutes,
    private readonly input: ActionRoutes,
    private readonly gestures: GestureRoutes,
  ) {}

  handle(session: Session, method: string, rest: string, body: Json): unknown {
    const ui = this.device.ui;
    const key = `${method} ${rest}`;
    switch (key) {
      // GetSessionDetails: only the last accessibility scroll's data, which this double does not record.
      case 'GET /':
        return { lastScrollData: null };
      case 'GET /appium/device/pixel_ratio':
        return this.device.system.density() / 160;
      // GetSystemBars answers the status bar's height only (SystemBarsModel has no other field).
      case 'GET /appium/device/system_bars':
        return { statusBar: STATUS_BAR_HEIGHT };
      case 'GET /appium/device/display_density':
        return this.device.system.density();
      case 'GET /window/current/size': {
        const { width, height } = this.device.display();
        return { width, height };
      }
      case 'GET /window/rect': {
        const { width, height } = this.device.display();
        return { x: 0, y: 0, width, height };
      }
      case 'GET /appium/device/info':
        return this.deviceInfo();
      case 'GET /appium/device/current_package':
        return ui.foreground().package;
      case 'GET /appium/device/current_activity':
        return ui.foreground().activity;
      case 'GET /appium/device/is_keyboard_shown':
        return ui.imeVisible();
      case 'GET /appium/settings':
        return this.settings.all();
      case 'POST /appium/settings':
        return this.settings.update(body);
      // GetOrientation / GetRotation from UiDevice.getDisplayRotation (useResourcesForOrientationDetection false).
      case 'GET /orientation':
        return this.device.display().rotation % 2 === 1 ? 'LANDSCAPE' : 'PORTRAIT';
      case 'POST /orientation':
        return this.setOrientation(body);
      case 'GET /rotation':
        return { x: 0, y: 0, z: this.device.display().rotation * 90 };
      case 'GET /alert/text':
        throw new HttpError(
          404,
          'no such alert',
          'An attempt was made to operate on a modal dialog when one was not open.',
        );
      // ElementLocationHelpers.findElement(s) without a context: resetAccessibilityCache, then the roots.
      case 'POST /element':
        return this.idle.idleThenRoot('find').then(() => this.elements.find(session, body, null, false));
      case 'POST /elements':
        return this.idle.idleThenRoot('find').then(() => this.elements.find(session, body, null, true));
      case 'GET /element/active':
        return this.idle.idleThenRoot('active element').then(() => {
          const focused = flatten(ui.tree()).find((e) => e.focused);
          if (!focused) throw noSuchElement();
          return this.elements.ref(session, focused);
        });
      // Source: resetAccessibilityCache (waitForIdle), then the active window's root.
      case 'GET /source':
        return this.idle
          .idleThenRoot('source')
          .then(() => toPageSource(ui.tree(), this.device.display(), serverBounds));
      case 'GET /screenshot':
        if (this.device.secureCaptureRefused() !== null) throw unableToCaptureScreen();
        return this.device.capturePng().then((png) => png.toString('base64'));
      case 'POST /actions':
        return this.input.actions(session, body);
      case 'POST /appium/gestures/long_click':
        return this.input.longClick(session, body);
      case 'DELETE /actions':
        return null;
      // UiDevice.pressBack waits for idle before the key, and not after it (docs/internals/device-quirks.md, Row 10).
      case 'POST /back':
        return this.idle.waitForIdle('back').then(() => {
          ui.back('uia2 back');
          return null;
        });
      // PressKeyCode: UiDevice.pressKeyCode (which waits for idle first) unless flags or a source are
      // given, then raw injectEventSync; LongPressKeyCode always injects directly, without a wait.
      case 'POST /appium/device/press_keycode':
        return (
          body.flags === undefined && body.source === undefined
            ? this.idle.waitForIdle('press keycode')
            : Promise.resolve()
        ).then(() => {
          this.input.pressKeycode(Number(body.keycode));
          return null;
        });
      case 'POST /appium/device/long_press_keycode':
        this.input.pressKeycode(Number(body.keycode));
        return null;
      // OpenNotification: UiDevice.openNotification (GLOBAL_ACTION_NOTIFICATIONS after a wait for
      // idle); false is answered as InvalidElementStateException, HTTP 400 invalid element state.
      case 'POST /appium/device/open_notifications':
        return this.idle.waitForIdle('open notifications').then(() => {
          if (!ui.openNotificationShade('uia2 open_notifications'))
            throw invalidElementState('Device failed to open notifications');
          return null;
        });
      case 'POST /appium/device/hide_keyboard':
      case 'POST /appium/commands/hide_keyboard':
        if (ui.imeVisible()) ui.back('uia2 hide_keyboard');
        return null;
      default:
        break;
    }
    const gesture = GESTURES.exec(key);
    if (gesture?.[1] !== undefined) return this.gestures.handle(gesture[1] as GestureName, session, body);
    const el = /^\/element\/([^/]+)(\/.*)$/.exec(rest);
    if (el && el[1] !== undefined && el[2] !== undefined)
      return this.elements.command(session, method, el[1], el[2], body);
    throw unknownCommand(method, `/session/:sessionId${rest}`);
  }

  /**
   * SetOrientation: ScreenRotation.ofOrientation (LANDSCAPE → ROTATION_270, PORTRAIT → ROTATION_0 with
   * useResourcesForOrientationDetection false), CustomUiDevice.setRotationSync (UiAutomation.setRotation,
   * then a poll of the display's rotation), and the orientation of the rotation reached as the value.
   */
  private setOrientation(body: Json): Promise<string> {
    const wanted = typeof body.orientation === 'string' ? body.orientation.toUpperCase() : String(body.orientation);
    if (wanted !== 'PORTRAIT' && wanted !== 'LANDSCAPE') {
      throw invalidArgument(
        `Orientation value '${String(body.orientation)}' is not supported. ` +
          `Only 'LANDSCAPE' and 'PORTRAIT' values could be translated into a valid screen orientation`,
      );
    }
    return this.idle.waitForIdle('set orientation').then(() => {
      this.device.ui.setRotation(wanted === 'LANDSCAPE' ? 3 : 0, 'uia2 orientation');
      return wanted;
    });
  }

  private deviceInfo(): Json {
    const props = this.device.system.props;
    return {
      androidId: this.device.system.settings.secure.get('android_id') ?? '',
      apiVersion: props.get('ro.build.version.sdk') ?? '34',
      platformVersion: props.get('ro.build.version.release') ?? '14',
      manufacturer: props.get('ro.product.manufacturer') ?? 'Google',
      model: props.get('ro.product.model') ?? '',
      brand: props.get('ro.product.brand') ?? 'google',
      locale: 'en_US',
      timeZone: 'Etc/UTC',
      // DeviceInfoHelper: Display.getRealSize, which is adjusted to the current rotation.
      realDisplaySize: `${this.device.display().width}x${this.device.display().height}`,
      displayDensity: this.device.system.density(),
      carrierName: 'T-Mobile',
      networks: [],
      bluetooth: { state: 'OFF' },
    };
  }
}
