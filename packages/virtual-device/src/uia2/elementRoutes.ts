/**
 * The element routes: finding elements (from the root or inside one) and what can be read of,
 * or done to, one cached element (`/session/:id/element/:elementId/…`).
 */
import { center, formatBounds } from '../device/geometry.js';
import type { UiElement } from '../device/uiTree.js';
import { serverBounds } from './bounds.js';
import type { Uia2Device } from './device.js';
import { HttpError, invalidElementState, noSuchElement, unableToCaptureScreen } from './errors.js';
import type { IdleWaits } from './idleWaits.js';
import { InvalidSelectorError, locate } from './locate.js';
import { cachedElement, elementRef, type Json, type Session } from './session.js';

export class ElementRoutes {
  constructor(
    private readonly device: Uia2Device,
    private readonly idle: IdleWaits,
  ) {}

  /** The node a session's element id stands for. */
  element(session: Session, id: string): UiElement {
    return cachedElement(session, this.device.ui, id);
  }

  ref(session: Session, e: UiElement): Json {
    return elementRef(session, this.device.ui, e);
  }

  find(session: Session, body: Json, contextId: string | null, multiple: boolean): unknown {
    const found = this.locateAll(session, body, contextId);
    if (multiple) return found.map((e) => this.ref(session, e));
    const first = found[0];
    if (!first) throw noSuchElement();
    return this.ref(session, first);
  }

  /** The nodes a `strategy`/`selector` (or W3C `using`/`value`) pair finds, without caching them. */
  locateAll(session: Session, body: Json, contextId: string | null): UiElement[] {
    const strategy = String(body.strategy ?? body.using ?? '');
    const selector = String(body.selector ?? body.value ?? '');
    const context = contextId ? this.element(session, contextId) : null;
    let found: UiElement[];
    try {
      found = locate(strategy, selector, {
        root: this.device.ui.tree(),
        context,
        currentPackage: this.device.ui.foreground().package,
        scroll: (el, delta) => this.device.ui.scrollBy(el.key, delta, 'uia2 UiScrollable'),
        refresh: () => this.device.ui.tree(),
      });
    } catch (e) {
      if (e instanceof InvalidSelectorError) throw new HttpError(400, 'invalid selector', e.message);
      throw e;
    }
    this.device.log('uia2', `find ${strategy}=${JSON.stringify(selector)} -> ${found.length} element(s)`);
    return found;
  }

  command(session: Session, method: string, id: string, sub: string, body: Json): unknown {
    if (method === 'POST' && sub === '/element') return this.find(session, body, id, false);
    if (method === 'POST' && sub === '/elements') return this.find(session, body, id, true);
    const e = this.element(session, id);
    const attr = /^\/attribute\/(.+)$/.exec(sub);
    if (method === 'GET' && attr && attr[1] !== undefined) return attribute(e, decodeURIComponent(attr[1]));
    const bounds = serverBounds(e);
    switch (`${method} ${sub}`) {
      case 'GET /text':
        return e.text;
      case 'GET /name':
        return e.className;
      case 'GET /rect':
        return { x: bounds.left, y: bounds.top, width: bounds.right - bounds.left, height: bounds.bottom - bounds.top };
      case 'GET /location':
        return { x: bounds.left, y: bounds.top };
      case 'GET /size':
        return { width: bounds.right - bounds.left, height: bounds.bottom - bounds.top };
      case 'GET /displayed':
        return true;
      case 'GET /enabled':
        return e.enabled;
      case 'GET /selected':
        return e.selected || e.checked;
      case 'GET /screenshot':
        // GetElementScreenshot crops the same device screenshot: refused the same way.
        if (this.device.secureCaptureRefused() !== null) throw unableToCaptureScreen();
        return this.device.capturePng().then((png) => png.toString('base64'));
      case 'POST /click': {
        // AxNodeInfoHelper.click: the centre of the bounds the server reports (uia2/bounds.ts).
        const c = center(bounds);
        this.device.ui.tapAt(c.x, c.y, 'uia2-click', e);
        // Click.java: Device.waitForIdle() after the click.
        return this.idle.waitForIdle('click').then(() => null);
      }
      case 'POST /clear':
        // UiObject2.clear is a set-text of "": a node that refuses it only logs a warning, and the answer is 200.
        this.device.ui.performSetText(e, '', 'uia2 clear');
        return null;
      case 'POST /value': {
        const text =
          typeof body.text === 'string'
            ? body.text
            : Array.isArray(body.value)
              ? (body.value as unknown[]).join('')
              : '';
        const replace = body.replace === true;
        const reason = `uia2 setValue${replace ? ' (replace)' : ''}`;
        // SendKeysToElement: ACTION_SET_TEXT (after its clear-before-append, which only a node that takes text reaches);
        // when the node says no, 400 invalid element state quoting the text.
        const value = replace || !this.device.ui.takesText(e) ? text : this.appended(session, id, e, text);
        if (!this.device.ui.performSetText(e, value, reason)) {
          throw invalidElementState(`Cannot set the element to '${text}'. Did you interact with the correct element?`);
        }
        return null;
      }
      default:
        throw new HttpError(
          404,
          'unknown command',
          `The requested resource could not be found: ${method} /element/:id${sub}`,
        );
    }
  }

  /**
   * SendKeysToElement without `replace` (appium-uiautomator2-server): it appends to what
   * getText() reports, but first clears the field, and when the field still reports a text
   * after the clear, takes that for a hint and appends to nothing. So a hint is never kept, and
   * a password's bullets are kept when the field has no hint, as on a device.
   */
  private appended(session: Session, id: string, e: UiElement, text: string): string {
    if (e.text === '') return text;
    this.device.ui.setText(e.key, '', 'uia2 setValue: clear before append');
    return this.element(session, id).text === '' ? e.text + text : text;
  }
}

/** GetElementAttribute: the attribute names the server knows, with their aliases; null for any other. */
function attribute(e: UiElement, name: string): string | null {
  const b = (v: boolean): string => (v ? 'true' : 'false');
  switch (name) {
    case 'text':
      return e.text;
    case 'content-desc':
    case 'contentDescription':
    case 'name':
      return e.contentDesc || null;
    case 'resource-id':
    case 'resourceId':
      return e.resourceId || null;
    case 'class':
    case 'className':
      return e.className;
    case 'package':
      return e.package;
    case 'hint':
      return e.hint || null;
    case 'showing-hint':
    case 'showingHintText':
      return b(e.showingHint);
    case 'bounds':
      return formatBounds(serverBounds(e));
    case 'index':
      return String(e.index);
    case 'checkable':
      return b(e.checkable);
    case 'checked':
      return b(e.checked);
    case 'clickable':
      return b(e.clickable);
    case 'enabled':
      return b(e.enabled);
    case 'focusable':
      return b(e.focusable);
    case 'focused':
      return b(e.focused);
    case 'long-clickable':
    case 'longClickable':
      return b(e.longClickable);
    case 'scrollable':
      return b(e.scrollable);
    case 'selected':
      return b(e.selected);
    case 'password':
      return b(e.password);
    case 'displayed':
      return 'true';
    default:
      return null;
  }
}
