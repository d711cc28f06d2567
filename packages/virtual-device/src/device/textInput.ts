/**
 * Text reaching fields: what the IME types into the focused field (`input text`, key events) and
 * ACTION_SET_TEXT on a node, which only an enabled editable field takes.
 */
import type { DeviceLogKind } from '../contracts.js';
import { describeElement, flatten, type UiElement, type Visit } from './uiTree.js';

export interface TextHost {
  current(): Visit;
  tree(): UiElement;
  /** Logs why an input does not reach the app (lock screen, display off) and says whether it was blocked. */
  blocked(what: string): boolean;
  log(kind: DeviceLogKind, detail: string): void;
  /** Something visible changed: screenshots and caches are stale. */
  redrawn(): void;
}

/**
 * Whether ACTION_SET_TEXT would succeed on this node: an enabled EditText (TextView refuses it
 * unless its text is editable and it is enabled), and for a Flutter field only while it has
 * focus (RenderEditable offers onSetText only then).
 */
export function takesText(element: UiElement): boolean {
  if (!element.className.endsWith('EditText') || !element.enabled) return false;
  return !element.setTextNeedsFocus || element.focused;
}

export class TextInput {
  constructor(private readonly host: TextHost) {}

  focusedField(): UiElement | null {
    const key = this.host.current().focusedKey;
    if (key === null) return null;
    return flatten(this.host.tree()).find((e) => e.key === key && e.className.endsWith('EditText')) ?? null;
  }

  setText(key: string, text: string, reason: string): void {
    const visit = this.host.current();
    visit.texts.set(key, text);
    this.host.redrawn();
    this.host.log('input', `${reason}: ${key} text=${JSON.stringify(text)} on [${visit.screen.spec.id}]`);
  }

  /** ACTION_SET_TEXT: sets the text and answers true, or logs the refusal and answers false, changing nothing. */
  performSetText(element: UiElement, text: string, reason: string): boolean {
    if (!takesText(element)) {
      const why =
        element.className.endsWith('EditText') && element.enabled
          ? 'a Flutter field without focus'
          : 'not an enabled editable field';
      this.host.log('input', `${reason}: ACTION_SET_TEXT refused by ${describeElement(element)} (${why})`);
      return false;
    }
    this.setText(element.key, text, reason);
    return true;
  }

  /** `input text`: characters go to the focused field when the IME could deliver them. */
  typeText(text: string, reason: string): boolean {
    if (this.host.blocked(`${reason}: text`)) return false;
    const field = this.focusedField();
    if (!field) {
      this.host.log('input', `${reason}: ${JSON.stringify(text)} dropped (no focused text field)`);
      return false;
    }
    this.setText(field.key, field.editableText + text, reason);
    return true;
  }
}
