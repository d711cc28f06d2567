import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../../support/fakes/harness.js';
import { offer } from './support.js';

describe('actions: ui_type_text', () => {
  it('ui_type_text counts code points and replaces the text', async () => {
    const h = buildHarness();
    offer(h, { input_hint: 'Search' }, '');
    const text = 'café 👍🏽';
    const envelope = await h.envelope('ui_type_text', { selector: { input_hint: 'Search' }, text });
    expect(envelope.data).toMatchObject({ target: { input_hint: 'Search' }, characters_sent: [...text].length });
    expect(h.automation.sessions[0]?.typed).toEqual([text]);
    expect(envelope.evidence?.artifact_id).toMatch(/-ui-type\.png$/);
  });

  it('ui_type_text taps a field that has no focus before typing (Flutter takes set-text only then), and leaves a focused one alone', async () => {
    const h = buildHarness();
    offer(h, { input_hint: 'Title' }, 'Title');
    // A Flutter-like field: set-text only while focused.
    h.automation.takesText = (_label, focused) => focused;
    const first = await h.envelope('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Milk' });
    expect(first.ok).toBe(true);
    const calls = h.automation.sessions[0]?.calls ?? [];
    expect(calls.slice(calls.indexOf('findElements'), calls.indexOf('typeText') + 1)).toEqual([
      'findElements',
      'elementPlace',
      'isFocused',
      // The place read beside the focus is what the tap plans with: no second read of the bounds.
      'click',
      'typeText',
    ]);
    // Focused now: no second tap (a tap could move the caret or toggle a selection).
    expect((await h.envelope('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Eggs' })).ok).toBe(true);
    expect(h.automation.sessions[1]?.calls).not.toContain('click');
    expect(h.automation.sessions.flatMap((s) => s.typed)).toEqual(['Milk', 'Eggs']);
  });

  it('ui_type_text on an element that is not a text field is refused before any tap: nothing pressed or typed, the fields offered named', async () => {
    const h = buildHarness();
    offer(h, { content_desc: 'Navigate up' }, 'Navigate up');
    h.automation.places.set('Navigate up', { className: 'android.widget.ImageButton', bounds: '[0,63][147,210]' });
    const envelope = await h.envelope('ui_type_text', { selector: { content_desc: 'Navigate up' }, text: 'hi' });
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_EDITABLE');
    expect(envelope.error?.message).toMatch(
      /^The element matched by content_desc 'Navigate up' is a android\.widget\.ImageButton, not a text field, so ui_type_text did not touch it: nothing was tapped or typed\. /,
    );
    const session = h.automation.sessions[0];
    expect(session?.calls).not.toContain('click');
    expect(session?.presses).toEqual([]);
    expect(session?.typed).toEqual([]);
  });

  it('ui_type_text types into an AutoCompleteTextView (it extends EditText but reports its own class)', async () => {
    const h = buildHarness();
    offer(h, { input_hint: 'To' }, 'To');
    h.automation.places.set('To', {
      className: 'android.widget.MultiAutoCompleteTextView',
      bounds: '[0,300][1080,420]',
    });
    expect((await h.envelope('ui_type_text', { selector: { input_hint: 'To' }, text: 'ana' })).ok).toBe(true);
    expect(h.automation.sessions[0]?.typed).toEqual(['ana']);
  });

  it('ui_type_text into an element that refuses text: its own message (found, but it does not take text), the inputs offered, failure evidence', async () => {
    const h = buildHarness();
    offer(h, { text: 'All apps' }, 'All apps');
    h.automation.takesText = (label) => label !== 'All apps';
    const envelope = await h.envelope('ui_type_text', { selector: { text: 'All apps' }, text: 'hunter2' });
    // Found, and it will not take text: its own code, never the not-found one.
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_EDITABLE');
    const message = envelope.error?.message ?? '';
    expect(message).toMatch(
      /^The element matched by text 'All apps' refused the text \(invalid element state\) even after a tap on it/,
    );
    expect(message).not.toContain('No visible element matched');
    expect(message).toMatch(/input fields instead: \{"ref":"e[0-9a-z]+"\} 'Search apps'/);
    expect(message).not.toContain('hunter2');
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-ui-type\.png$/);
    expect(h.automation.sessions[0]?.typed).toEqual([]);
  });
});
