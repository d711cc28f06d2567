/**
 * The link grammar of app_open_link and the shell word it becomes. The property that matters:
 * whatever the model sends, either it is refused typed, or the command line adb hands the device
 * (`adb shell` joins the argv with spaces, and a shell parses it again) splits back into exactly
 * the argv the harness built, the link one word equal to itself. Checked with real POSIX shells
 * (dash and bash; Android's mksh quotes the same way), not with a parser of our own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../../src/domain/errors.js';
import { parseLinkUri, shellWordOfLink, type LinkUri } from '../../../../src/domain/links/linkUri.js';
import type { PackageName } from '../../../../src/domain/validation.js';
import { ADB_COMMANDS } from '../../../../src/infrastructure/adb/AdbDeviceGateway.js';

const ALLOWED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@&=+,';
const SHELLS = ['/bin/dash', '/bin/bash'].filter((s) => existsSync(s));

function refusal(input: unknown): string {
  try {
    parseLinkUri(input);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('INVALID_ARGUMENT');
    return (error as HarnessError).message;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

/** Each command line through `sh`: the words it splits into, per line. */
function wordsThroughShell(shell: string, lines: readonly string[]): string[][] {
  const script = lines
    .map((line) => `set -- ${line}; for w in "$@"; do printf '%s\\037' "$w"; done; printf '\\036'`)
    .join('\n');
  const out = execFileSync(shell, ['-c', script], { encoding: 'utf8', cwd: '/' });
  return out
    .split('\x1e')
    .slice(0, -1)
    .map((chunk) => chunk.split('\x1f').slice(0, -1));
}

const acceptedLink = fc
  .tuple(
    fc
      .stringMatching(/^[a-z][a-z0-9+.-]{0,10}$/)
      .filter((s) => !['file', 'content', 'javascript', 'vbscript', 'data', 'intent'].includes(s)),
    fc.array(
      fc.oneof(fc.constantFrom(...ALLOWED.split('')), fc.constantFrom('%20', '%27', '%3B', '%24', '%0A', '%00')),
      { minLength: 1, maxLength: 80 },
    ),
  )
  .map(([scheme, rest]) => `${scheme}:${rest.join('')}`);

describe('app_open_link: the link grammar', () => {
  it('accepts the links people send', () => {
    for (const link of [
      'https://example.com/item?id=42&ref=mail#top',
      'myapp://orders/42',
      'notes://note/7',
      'geo:37.422,-122.084?q=Googleplex',
      'tel:+15551234567',
      'mailto:ada@example.com',
      'https://en.wikipedia.org/wiki/Ada_Lovelace_%28disambiguation%29',
      'android-app://com.example.app/https/example.com/x',
      'market://details?id=com.example.app',
    ]) {
      expect(parseLinkUri(link)).toBe(link);
    }
  });

  it('refuses what is not a link into an app, saying what to send instead', () => {
    expect(refusal('https://example.com/a b')).toBe(
      "Invalid url: it contains a space at position 22. A link is scheme:rest in plain ASCII, e.g. https://example.com/item?id=42 or myapp://orders/42: a lower-case scheme, then only letters, digits and - . _ ~ : / ? # @ & = + , with anything else percent-encoded (%20 for a space, %27 for ', %28 and %29 for parentheses), at most 2000 characters.",
    );
    expect(refusal("https://x.com/'; reboot; '")).toMatch(/^Invalid url: it contains ''' at position 15\. /);
    expect(refusal('https://x.com/$(reboot)')).toMatch(/^Invalid url: it contains '\$' at position 15\. /);
    expect(refusal('https://x.com/`id`')).toMatch(/contains '`' at position 15/);
    expect(refusal('https://x.com/a\nreboot')).toMatch(/contains U\+000A at position 16/);
    expect(refusal('https://x.com/\u00e9')).toMatch(/contains U\+00E9 at position 15/);
    expect(refusal('HTTPS://x.com')).toMatch(
      /^Invalid url: write the scheme in lower case \('https:'\), as Android matches it exactly\. /,
    );
    expect(refusal('example.com/x')).toMatch(/^Invalid url: it does not start with a scheme/);
    expect(refusal('-n com.evil/.Main')).toMatch(/^Invalid url: it does not start with a scheme/);
    expect(refusal('file:///sdcard/secret.txt')).toMatch(
      /^Invalid url: a file: URI reads the device's files, not an app's link; app_open_link opens links into apps\. /,
    );
    expect(refusal('intent:#Intent;component=com.evil/.X;end')).toMatch(
      /^Invalid url: an intent: URI describes another intent/,
    );
    expect(refusal('content://contacts/people')).toMatch(/content: URI/);
    expect(refusal('javascript:alert(1)')).toMatch(/javascript: URI/);
    expect(refusal('https://x.com/100%')).toMatch(/a % must start a two-digit hexadecimal escape/);
    expect(refusal('myapp:')).toMatch(/nothing follows the scheme/);
    expect(refusal(`https://x.com/${'a'.repeat(2000)}`)).toMatch(/^Invalid url: it is 2014 characters long\. /);
    expect(refusal(undefined)).toMatch(/^Invalid url: the "url" argument is missing/);
    expect(refusal(42)).toMatch(/^Invalid url: got a number, not a string\. /);
    expect(refusal('')).toMatch(/^Invalid url: it is empty\. /);
  });

  it('never echoes the link itself in a refusal (it may carry a token), only the offending character', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 60 }), (s) => {
        const link = `https://x.com/?token=SECRET${s}`;
        try {
          parseLinkUri(link);
        } catch (error) {
          expect((error as Error).message).not.toContain('SECRET');
        }
      }),
    );
  });

  it('accepts only characters that are inert inside single quotes, and never a quote', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.string({ unit: 'binary', maxLength: 60 }),
          acceptedLink,
          acceptedLink.map((l) => `${l}'`),
        ),
        (s) => {
          let accepted: string | null = null;
          try {
            accepted = parseLinkUri(s);
          } catch (error) {
            expect((error as HarnessError).code).toBe('INVALID_ARGUMENT');
          }
          if (accepted !== null)
            expect(accepted).toMatch(/^[a-z][a-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#@&=+,]|%[0-9A-Fa-f]{2})+$/);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.skipIf(SHELLS.length === 0)(
    'the command adb hands the device splits back into exactly the argv built, the link one word (real sh)',
    () => {
      const samples = fc.sample(
        fc.tuple(acceptedLink, fc.option(fc.constantFrom('com.example.notes', 'com.android.chrome'), { nil: null })),
        { numRuns: 400, seed: 27 },
      );
      const hostile = [
        'https://x.com/?a=1&reboot',
        'https://x.com/#;reboot',
        'myapp://x?q=~root&x=$HOME',
        'https://x.com/*',
        'https://x.com/?',
        'https://x.com/[a]',
      ].filter((l) => {
        try {
          parseLinkUri(l);
          return true;
        } catch {
          return false;
        }
      });
      const cases = [...samples, ...hostile.map((l) => [l, null] as const)].map(([link, pkg]) => ({
        argv: ADB_COMMANDS.openLink(parseLinkUri(link), pkg as PackageName | null),
        link,
        pkg,
      }));
      for (const shell of SHELLS) {
        // adb's client: `shell` + the rest joined with single spaces, no escaping (commandline.cpp, "just like ssh").
        const parsed = wordsThroughShell(
          shell,
          cases.map((c) => c.argv.slice(1).join(' ')),
        );
        expect(parsed).toHaveLength(cases.length);
        cases.forEach((c, i) => {
          expect(parsed[i], `${shell}: ${c.link}`).toEqual([
            'am',
            'start',
            '-W',
            '-a',
            'android.intent.action.VIEW',
            '-d',
            c.link,
            ...(c.pkg ? [c.pkg] : []),
          ]);
        });
      }
    },
  );

  it('the adapter re-checks a link before the argv exists, whatever its type says', () => {
    expect(() => shellWordOfLink("https://x.com/'; reboot" as LinkUri)).toThrow(/not given to adb/);
    expect(() => ADB_COMMANDS.openLink('https://x.com/ok' as LinkUri, '-n x' as PackageName)).toThrow(/not valid/);
    expect(ADB_COMMANDS.openLink(parseLinkUri('notes://note/7'), 'com.example.notes' as PackageName)).toEqual([
      'shell',
      'am',
      'start',
      '-W',
      '-a',
      'android.intent.action.VIEW',
      '-d',
      "'notes://note/7'",
      'com.example.notes',
    ]);
  });
});
