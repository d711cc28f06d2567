/**
 * Hostile values for the injection suites, and independent oracles written from
 * the contract's validation rules (not imported from src/domain) that say whether a value is acceptable where.
 */

/** A value to put into a parameter; `absent` means the key is left out. */
export type Hostile =
  { readonly label: string; readonly value: unknown } | { readonly label: 'absent'; readonly absent: true };

const SHELL_PAYLOADS = [
  ';',
  '&&',
  '||',
  '|',
  '&',
  '`id`',
  '$(id)',
  '${IFS}',
  '$HOME',
  '>',
  '>>',
  '<',
  '2>&1',
  '\\',
  '*',
  '?',
  '~',
  '#',
  '!',
  '!!',
  '; rm -rf /',
  '&& reboot',
  '|| whoami',
  '| sh',
  '`reboot`',
  '$(reboot)',
  '; am force-stop com.android.settings',
  '; input tap 500 500',
  '> /sdcard/x',
  '< /etc/passwd',
  '& sleep 100 &',
  "'; reboot; '",
  '"; reboot; "',
  "\\'; reboot #",
  "$'\\x41'",
  '{a,b}',
  '[a-z]*',
  'a=b c',
  '%s%s%s%n',
  '{{7*7}}',
  '${jndi:ldap://127.0.0.1/a}',
  '%0a',
  '%00',
  '../',
  '..\\',
];
const QUOTES = [
  "'",
  '"',
  "''",
  '""',
  '\'"',
  "it's",
  'say "hi"',
  `both ' and "`,
  '`',
  "'''",
  '\\"',
  "\\'",
  '\u2018smart\u2019',
  '\u201cdouble\u201d',
];
const NEWLINES = [
  '\n',
  '\r',
  '\r\n',
  'a\nb',
  'a\rb',
  'com.x\ncom.y',
  'Save\n; reboot',
  '\t',
  'a\tb',
  '\u2028',
  '\u2029',
  '\u0085',
];
const CONTROL = [
  '\u0000',
  'a\u0000b',
  'com.x\u0000',
  '\u0001',
  '\u0007',
  '\u001b[31m',
  '\u007f',
  '\u0008\u0008',
  '\u000b',
  '\u000c',
];
const BIDI = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  'abc\u202edcba',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  'txt\u2066x\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
];
const FLAGS = [
  '-e',
  '-n',
  '-S',
  '--user 0',
  '--help',
  '-rf',
  '--',
  '-',
  '--ez a true',
  '-a android.intent.action.DELETE',
  '--es x y',
  '-W -n com.x/.A',
];
const TRAVERSAL = [
  '../../etc/passwd',
  '/etc/passwd',
  'com.x/../../etc',
  '..\\..\\windows\\win.ini',
  '/sdcard/../data',
  'file:///etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  'com.android.settings/.Settings',
  'com.x/.A;id',
  '~/.ssh/id_rsa',
  '/proc/self/environ',
  '.',
  '..',
];
const UNICODE = [
  '🙂',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  'שלום עולם',
  'مرحبا بالعالم',
  '你好世界',
  '日本語テキスト',
  '한국어',
  'Ελληνικά',
  'Ünïcödé',
  'e\u0301',
  'ﬁ',
  '\ufeff',
  '\u200b',
  'ｃｏｍ．ｘ',
  '𝓧𝓨𝓩',
  '\ud800',
  '\udfff',
  'a\ud83dz',
  'İ',
  'ß',
  'ǅ',
];
const XPATH = [
  "' or '1'='1",
  '" or "1"="1',
  "'] | //* | //*['",
  '"] | //* | //*["',
  "')]//*[contains(@text,'",
  "concat('a','b')",
  '//*',
  '*',
  "text()='x'",
  "x' and @clickable='true",
  '<hierarchy/>',
  '<!--',
  ']]>',
  '&amp;',
  '&#10;',
];
const WHITESPACE = ['', ' ', '   ', '\u00a0', '\u3000'];
/** Near misses of ui_scroll's four directions: only the exact lowercase words pass. */
const DIRECTION_NEAR_MISSES = [
  'LEFT',
  'Right',
  ' left',
  'right ',
  'left\n',
  'ríght',
  'sideways',
  'horizontal',
  'left,right',
  'right;reboot',
  'rtl',
  'forward',
  'backward',
];

function repeatTo(unit: string, codePoints: number): string {
  const units = [...unit];
  let out = '';
  for (let i = 0; i < codePoints; i += 1) out += units[i % units.length];
  return out;
}

const LONG = [
  { label: '10KB ascii', value: 'A'.repeat(10_240) },
  { label: '10KB shell', value: '; reboot'.repeat(1_280) },
  { label: '10KB emoji', value: '🙂'.repeat(2_560) },
  { label: '10KB CJK', value: '你'.repeat(3_414) },
  { label: '256 code points', value: repeatTo('ab', 256) },
  { label: '257 code points', value: repeatTo('ab', 257) },
  { label: '256 emoji', value: repeatTo('🙂', 256) },
  { label: '257 emoji', value: repeatTo('🙂', 257) },
  { label: '512 code points', value: repeatTo('xy', 512) },
  { label: '513 code points', value: repeatTo('xy', 513) },
  { label: '512 RTL', value: repeatTo('ש', 512) },
  { label: '513 RTL', value: repeatTo('ש', 513) },
  { label: '255-char package', value: `a${'.b'.repeat(127)}` },
  { label: '300-char package', value: `a${'.b'.repeat(150)}` },
];

const WRONG_TYPES: Hostile[] = [
  { label: 'number 0', value: 0 },
  { label: 'number 1', value: 1 },
  { label: 'number -1', value: -1 },
  { label: 'float', value: 1.5 },
  { label: 'huge number', value: 1e308 },
  { label: 'true', value: true },
  { label: 'false', value: false },
  { label: 'null', value: null },
  { label: 'empty array', value: [] },
  { label: 'array of string', value: ['up'] },
  { label: 'nested array', value: [['com.android.settings']] },
  { label: 'empty object', value: {} },
  { label: 'object', value: { text: 'Apps' } },
  { label: 'proto object', value: JSON.parse('{"__proto__":{"polluted":true}}') as unknown },
  { label: 'constructor object', value: { constructor: { prototype: { polluted: true } } } },
  { label: 'absent', absent: true },
];

/** Shapes of a selector itself (the whole `selector` argument). */
export const HOSTILE_SELECTOR_SHAPES: Hostile[] = [
  { label: 'string selector', value: 'Apps' },
  { label: 'xpath string', value: "//*[@text='Apps']" },
  { label: 'two keys', value: { text: 'Apps', resource_id: 'x' } },
  { label: 'unknown key', value: { xpath: "//*[@text='Apps']" } },
  { label: 'unknown key uiautomator', value: { uiautomator: 'new UiSelector().text("Apps")' } },
  { label: 'coordinates', value: { x: 10, y: 20 } },
  { label: 'bounds', value: { bounds: '[0,0][10,10]' } },
  { label: 'nested within', value: { text: 'Save', within: { content_desc: 'Work profile', within: { text: 'x' } } } },
  { label: 'within only', value: { within: { text: 'Apps' } } },
  { label: 'within string', value: { text: 'Save', within: 'Work profile' } },
  { label: 'within two keys', value: { text: 'Save', within: { text: 'a', content_desc: 'b' } } },
  { label: 'value number', value: { text: 5 } },
  { label: 'value null', value: { text: null } },
  { label: 'value array', value: { text: ['Apps'] } },
  { label: 'value object', value: { text: { $ne: '' } } },
  { label: 'proto key', value: JSON.parse('{"__proto__":{"text":"Apps"}}') as unknown },
  { label: 'key with bidi', value: { 'te\u202ext': 'Apps' } },
];

/** Every hostile string (labelled), then the wrong JSON types: at least 300 in all. */
export function hostileValues(): Hostile[] {
  const strings: Hostile[] = [];
  const add = (group: string, values: readonly string[]): void => {
    values.forEach((value, i) => strings.push({ label: `${group}#${i}`, value }));
  };
  add('shell', SHELL_PAYLOADS);
  add(
    'shell-in-package',
    SHELL_PAYLOADS.map((p) => `com.example${p}`),
  );
  add(
    'shell-after-valid',
    SHELL_PAYLOADS.map((p) => `com.android.settings${p}`),
  );
  add(
    'shell-around-word',
    SHELL_PAYLOADS.map((p) => `Save${p}whoami`),
  );
  add('quote', QUOTES);
  add('newline', NEWLINES);
  add('control', CONTROL);
  add('bidi', BIDI);
  add('flag', FLAGS);
  add('traversal', TRAVERSAL);
  add('unicode', UNICODE);
  add('xpath', XPATH);
  add('whitespace', WHITESPACE);
  add('direction', DIRECTION_NEAR_MISSES);
  for (const item of LONG) strings.push(item);
  return [...strings, ...WRONG_TYPES];
}

// --- Oracles from the contract's validation rules ----------------------------------------

/** The validation rules' list: C0, DEL, and the bidi overrides and isolates. */
function isControlOrBidi(cp: number): boolean {
  return cp <= 0x1f || cp === 0x7f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

function hasLoneSurrogate(value: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);
}

/** A selector value, by the validation rules: non-empty after trim, ≤ 256 code points, no controls but \n \r \t, no bidi overrides. */
export function selectorValueAccepted(value: unknown): boolean {
  if (typeof value !== 'string' || value.trim() === '' || hasLoneSurrogate(value)) return false;
  const cps = [...value];
  if (cps.length > 256) return false;
  return cps.every((ch) => {
    const cp = ch.codePointAt(0) ?? 0;
    return ch === '\n' || ch === '\r' || ch === '\t' || !isControlOrBidi(cp);
  });
}

/** Text, by the validation rules: 1 to 512 code points, no control characters at all (bidi included). */
export function textAccepted(value: unknown): boolean {
  if (typeof value !== 'string' || hasLoneSurrogate(value)) return false;
  const cps = [...value];
  // "No control characters at all": the C1 controls (U+0080–U+009F, e.g. NEL) count too.
  return (
    cps.length >= 1 &&
    cps.length <= 512 &&
    cps.every((ch) => {
      const cp = ch.codePointAt(0) ?? 0;
      return !isControlOrBidi(cp) && !(cp >= 0x80 && cp <= 0x9f);
    })
  );
}

/** The package pattern of the validation rules (the implementation also caps the length at 255). */
export function packageAccepted(value: unknown): boolean {
  return (
    typeof value === 'string' && value.length <= 255 && /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/.test(value)
  );
}

export function sessionIdWellFormed(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{24,128}$/.test(value);
}

/** Puts a hostile value at `key` of `base` (or leaves the key out). */
export function withValue(base: Record<string, unknown>, key: string, hostile: Hostile): Record<string, unknown> {
  const args = { ...base };
  if ('absent' in hostile) delete args[key];
  else args[key] = hostile.value;
  return args;
}

export function describeHostile(hostile: Hostile): string {
  if ('absent' in hostile) return 'absent';
  const shown = JSON.stringify(hostile.value) ?? String(hostile.value);
  return `${hostile.label}=${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}`;
}
