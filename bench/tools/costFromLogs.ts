/**
 * Where the virtual device's cost model (packages/virtual-device/src/timing/) takes its figures:
 * the public Appium server logs the conformance corpus is built from, read again for their
 * timestamps, which the corpus does not keep.
 *
 *   node --import tsx bench/tools/costFromLogs.ts --clones DIR
 *
 * DIR holds git clones named `owner+name` (as for scripts/conformance/build-corpus.ts). For each
 * listed log it pairs `[WD Proxy] Proxying [M PATH]` with the next `Got response with status`
 * (the UiAutomator2 server's own time, without Appium's) and times each `[ADB] Running '… shell X'`
 * to the next line of the log (the command plus the host adb client's start: an upper bound).
 * Prints one row per operation and source (n, median, p90, API level) on stdout, as a research
 * tool (not part of `npm run bench`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listedSources } from '../../scripts/conformance/corpus.js';

const STAMP = /^(\d{4}-\d\d-\d\d) (\d\d):(\d\d):(\d\d)[:.](\d{3}) /;

function stampMs(line: string): number | null {
  const m = STAMP.exec(line);
  if (!m) return null;
  const [, , h, mi, s, ms] = m;
  return ((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1000 + Number(ms);
}

/** The cost model's operation for a proxied UiAutomator2 request, or null for one it does not price. */
function uia2Operation(method: string, path: string, line: string): string | null {
  const rest = path.replace(/^\/session\/[^/]+/, '');
  if (method === 'POST' && path === '/session') return 'uia2.session';
  if (method === 'POST' && /^\/elements?$/.test(rest)) {
    const strategy = /"strategy":"([^"]+)"/.exec(line)?.[1] ?? '?';
    return `uia2.find ${strategy}`;
  }
  if (method === 'POST' && /^\/element\/[^/]+\/elements?$/.test(rest)) return 'uia2.find (child)';
  if (method === 'POST' && /\/click$/.test(rest)) return 'uia2.click';
  if (method === 'POST' && /^\/element\/[^/]+\/(value|clear)$/.test(rest)) return `uia2.${rest.split('/').pop()}`;
  if (method === 'GET' && rest === '/source') return 'uia2.source';
  if (method === 'GET' && /screenshot$/.test(rest)) return 'uia2.screenshot';
  if (method === 'POST' && /(actions|touch\/perform|gestures\/\w+|touch\/\w+)$/.test(rest)) return 'uia2.gesture';
  if (method === 'GET' && /^\/element\/[^/]+\/(attribute\/\w+|text|rect|name)$/.test(rest)) return 'uia2.attribute';
  if (method === 'POST' && /press_keycode|\/back$/.test(rest)) return 'uia2.key';
  if (method === 'GET' && (rest === '/' || rest === '')) return null;
  if (method === 'GET') return 'uia2.query';
  return null;
}

function shellOperation(command: string): string | null {
  const c = command.replace(/^'|'$/g, '');
  const rules: [RegExp, string][] = [
    [/^uiautomator dump/, 'shell.uiautomator dump'],
    [/^screencap/, 'shell.screencap'],
    [/^input (tap|swipe)/, 'shell.input tap/swipe'],
    [/^input (text|keyevent)/, 'shell.input text/keyevent'],
    [/^am start -W/, 'shell.am start -W'],
    [/^am start/, 'shell.am start'],
    [/^am force-stop/, 'shell.am force-stop'],
    [/^am instrument/, 'shell.am instrument'],
    [/^dumpsys window/, 'shell.dumpsys window'],
    [/^dumpsys power/, 'shell.dumpsys power'],
    [/^dumpsys package/, 'shell.dumpsys package'],
    [/^dumpsys/, 'shell.dumpsys (other)'],
    [/^pm (list|path)/, 'shell.pm list/path'],
    [/^pm clear/, 'shell.pm clear'],
    [/^pm/, 'shell.pm (other)'],
    [/^getprop/, 'shell.getprop'],
    [/^wm /, 'shell.wm'],
    [/^settings /, 'shell.settings'],
    [/^echo /, 'shell.echo'],
    [/^(ps|pgrep|pidof)/, 'shell.ps/pgrep'],
  ];
  for (const [re, op] of rules) if (re.test(c)) return op;
  return null;
}

interface Row {
  readonly op: string;
  readonly ms: number;
}

function rowsOf(log: string): Row[] {
  const lines = log.split(/\r?\n/);
  const rows: Row[] = [];
  let pending: { op: string; at: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const at = stampMs(line);
    if (at === null) continue;
    const proxy = /\[WD Proxy\] Proxying \[(\w+) ([^\]]+)\] to \[\w+ \S+?\/wd\/hub(\/[^\]]*)\]/.exec(line);
    if (proxy) {
      const op = uia2Operation(proxy[1] as string, (proxy[3] as string).replace(/\/$/, '') || '/', line);
      pending = op ? { op, at } : null;
      continue;
    }
    if (pending && /\[WD Proxy\] Got response with status 2\d\d/.test(line)) {
      rows.push({ op: pending.op, ms: at - pending.at });
      pending = null;
      continue;
    }
    const adb = /\[ADB\] Running '[^']*?adb(?:\.exe)? (?:-P \d+ )?-s \S+ shell (.*)'$/.exec(line);
    if (adb) {
      const op = shellOperation(adb[1] as string);
      const next = lines.slice(i + 1).find((l) => stampMs(l) !== null);
      const nextAt = next ? stampMs(next) : null;
      if (op && nextAt !== null && nextAt >= at) rows.push({ op, ms: nextAt - at });
    }
  }
  return rows;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

function gitDirOf(clones: string, repository: string): string | null {
  const base = join(clones, repository.replace('/', '+'));
  for (const candidate of [join(base, 'repo'), join(base, '.git'), base]) {
    if (existsSync(join(candidate, 'HEAD'))) return candidate;
  }
  return null;
}

function main(argv: readonly string[]): void {
  const at = argv.indexOf('--clones');
  const clones = at >= 0 ? argv[at + 1] : undefined;
  if (!clones) {
    process.stderr.write('usage: costFromLogs.ts --clones DIR\n');
    process.exit(2);
  }
  const all = new Map<string, number[]>();
  for (const source of listedSources()) {
    const gitDir = gitDirOf(clones, source.repository);
    if (!gitDir) continue;
    const log = execFileSync('git', ['--git-dir', gitDir, 'show', `${source.commit}:${source.path}`], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const api = /"apiVersion":"(\d+)"|platformVersion"?:"?(\d+)/.exec(log);
    const byOp = new Map<string, number[]>();
    for (const row of rowsOf(log)) {
      byOp.set(row.op, [...(byOp.get(row.op) ?? []), row.ms]);
      all.set(row.op, [...(all.get(row.op) ?? []), row.ms]);
    }
    for (const [op, values] of [...byOp].sort()) {
      const sorted = [...values].sort((a, b) => a - b);
      process.stdout.write(
        `${source.repository}\tAPI ${api?.[1] ?? api?.[2] ?? '?'}\t${op}\tn=${sorted.length}\tmedian=${quantile(sorted, 0.5)}\tp90=${quantile(sorted, 0.9)}\n`,
      );
    }
  }
  process.stdout.write('\nall sources\n');
  for (const [op, values] of [...all].sort()) {
    const sorted = [...values].sort((a, b) => a - b);
    process.stdout.write(
      `${op}\tn=${sorted.length}\tmedian=${quantile(sorted, 0.5)}\tp90=${quantile(sorted, 0.9)}\tmax=${sorted.at(-1)}\n`,
    );
  }
}

main(process.argv.slice(2));
