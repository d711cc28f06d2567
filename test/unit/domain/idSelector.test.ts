/**
 * The `id` selector key (a resource id of the foreground app without its
 * `<package>:id/` prefix) and the one position-like argument name accepted, include_bounds.
 */
import { describe, expect, it } from 'vitest';
import { checkArgumentNames, parseSelector, POSITION_OUTPUT_FLAG } from '../../../src/domain/validation.js';
import { expandIds, idValueProblem, selectorToWire } from '../../../src/domain/selectors/selector.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { summariseScreen } from '../../../src/domain/summary/summary.js';
import { selectorOfEntry, type ScreenContext } from '../../../src/domain/tree/screen.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { screen, uiautomatorDump } from './dumpBuilder.js';

function code(run: () => unknown): string {
  try {
    run();
    return 'no error';
  } catch (error) {
    return error instanceof HarnessError ? error.code : String(error);
  }
}

describe('the id key: value rules', () => {
  it('accepts a bare resource name', () => {
    expect(parseSelector({ id: 'login_button' })).toEqual({ target: { key: 'id', value: 'login_button' } });
    expect(parseSelector({ text: 'OK', within: { id: 'dialog' } }).within).toEqual({ key: 'id', value: 'dialog' });
  });

  it.each([
    ['a package-qualified id', 'com.app:id/login'],
    ['a colon', 'a:b'],
    ['a slash', 'id/login'],
    ['a space', 'login button'],
    ['a tab', 'login\tbutton'],
    ['a newline', 'login\n'],
    ['nothing', ''],
  ])('refuses %s with INVALID_SELECTOR, pointing to resource_id', (_name, value) => {
    expect(code(() => parseSelector({ id: value }))).toBe('INVALID_SELECTOR');
    expect(code(() => parseSelector({ text: 'OK', within: { id: value } }))).toBe('INVALID_SELECTOR');
  });

  it('says a full resource id goes in resource_id', () => {
    expect(idValueProblem('com.app:id/login')).toContain('resource_id');
    expect(idValueProblem('login')).toBeNull();
  });
});

describe('the id key: meaning', () => {
  it("expands to the foreground package's resource id, in the target and in within", () => {
    const selector = parseSelector({ id: 'send', within: { id: 'composer' } });
    expect(expandIds(selector, 'com.example.mail')).toEqual({
      target: { key: 'resource_id', value: 'com.example.mail:id/send' },
      within: { key: 'resource_id', value: 'com.example.mail:id/composer' },
    });
    const plain = parseSelector({ text: 'Send' });
    expect(expandIds(plain, 'com.example.mail')).toBe(plain);
  });

  it('the matcher and the locator builder throw on an unexpanded id (a programming error, not a model error)', () => {
    const tree = parseDump(
      uiautomatorDump([
        screen([{ id: 'com.example.app:id/send', text: 'Send', clickable: true, bounds: '[0,0][100,100]' }]),
      ]),
    );
    const unexpanded = parseSelector({ id: 'send' });
    expect(() => matchSelector(tree, unexpanded)).toThrow(/unexpanded id/);
    expect(() => buildLocator(unexpanded)).toThrow(/unexpanded id/);
    expect(() => buildLocator(parseSelector({ text: 'Send', within: { id: 'bar' } }))).toThrow(/unexpanded id/);
    expect(code(() => buildLocator(unexpanded))).not.toBe('INVALID_SELECTOR');
    const expanded = expandIds(unexpanded, 'com.example.app');
    expect(matchSelector(tree, expanded)).toHaveLength(1);
    expect(buildLocator(expanded)).toEqual({ using: 'id', value: 'com.example.app:id/send' });
  });

  it("renders only the foreground package's ids short; another package keeps resource_id", () => {
    const selector = {
      target: { key: 'resource_id' as const, value: 'com.example.app:id/send' },
      within: { key: 'resource_id' as const, value: 'android:id/content' },
    };
    expect(selectorToWire(selector, 'com.example.app')).toEqual({
      id: 'send',
      within: { resource_id: 'android:id/content' },
    });
    expect(selectorToWire(selector, 'com.other')).toEqual({
      resource_id: 'com.example.app:id/send',
      within: { resource_id: 'android:id/content' },
    });
    expect(selectorToWire(selector)).toEqual({
      resource_id: 'com.example.app:id/send',
      within: { resource_id: 'android:id/content' },
    });
    // A name an id may not carry stays a resource_id (a React Native testID is not package-qualified at all).
    expect(
      selectorToWire({ target: { key: 'resource_id', value: 'com.example.app:id/a b' } }, 'com.example.app'),
    ).toEqual({ resource_id: 'com.example.app:id/a b' });
  });

  it("the summary offers id for the foreground app, resource_id for System UI and Android's own ids", () => {
    const context: ScreenContext = {
      density: 420,
      window: { foregroundPackage: 'com.example.app', ime: { visible: false, frame: null }, displaySize: null },
    };
    const tree = parseDump(
      uiautomatorDump([
        screen([
          { id: 'com.example.app:id/send', clickable: true, bounds: '[0,0][540,200]' },
          { id: 'android:id/button1', clickable: true, bounds: '[540,0][1080,200]' },
        ]),
      ]),
    );
    const summary = summariseScreen(tree, context);
    expect(summary.actions.map((a) => selectorOfEntry(a))).toEqual([
      { id: 'send' },
      { resource_id: 'android:id/button1' },
    ]);
    for (const entry of summary.actions) {
      const selector = expandIds(parseSelector(selectorOfEntry(entry)), summary.foreground_package);
      expect(matchSelector(tree, selector)).toHaveLength(1);
    }
  });
});

describe('the id key in ambiguous names', () => {
  const context: ScreenContext = {
    density: 420,
    window: { foregroundPackage: 'com.example.app', ime: { visible: false, frame: null }, displaySize: null },
  };

  it('names an ambiguous entry by the bare id when the id is all it has', () => {
    const tree = parseDump(
      uiautomatorDump([
        screen([
          { id: 'com.example.app:id/row', clickable: true, bounds: '[0,0][1080,200]' },
          { id: 'com.example.app:id/row', clickable: true, bounds: '[0,200][1080,400]' },
        ]),
      ]),
    );
    const { actions } = summariseScreen(tree, context);
    expect(actions.map((a) => [a.label, a.ambiguous, selectorOfEntry(a)])).toEqual([
      ['row', true, null],
      ['row', true, null],
    ]);
  });
});

describe('include_bounds: the one position-like argument name accepted (POSITION_OUTPUT_FLAG)', () => {
  it('passes where the tool declares it', () => {
    expect(POSITION_OUTPUT_FLAG).toBe('include_bounds');
    expect(() =>
      checkArgumentNames({ include_bounds: true }, ['include_raw', 'include_bounds'], 'ui_tap'),
    ).not.toThrow();
  });

  it('is refused as a position where the tool does not declare it (an acting tool)', () => {
    expect(code(() => checkArgumentNames({ include_bounds: true }, ['selector', 'long_press'], 'ui_tap'))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it.each(['bounds', 'show_bounds', 'include_bounds_px', 'with_bounds', 'x', 'coordinates', 'position'])(
    'every other position-like name (%s) stays refused, even where include_bounds is declared, and even if a tool declared it',
    (key) => {
      expect(code(() => checkArgumentNames({ [key]: true }, ['include_bounds'], 'ui_tap'))).toBe('INVALID_ARGUMENT');
      expect(code(() => checkArgumentNames({ [key]: true }, ['include_bounds', key], 'ui_tap'))).toBe(
        'INVALID_ARGUMENT',
      );
    },
  );

  it('is refused inside a selector (a selector never carries a position)', () => {
    expect(code(() => parseSelector({ text: 'OK', include_bounds: true }))).toBe('INVALID_SELECTOR');
  });
});
