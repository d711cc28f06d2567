/** Toybox-style file, text and property commands. */
import type { CommandHandler, CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';
import { PHYSICAL_DENSITY } from '../../device/system.js';

const ok = (io: CommandIo, text = ''): number => {
  if (text) io.out(text);
  return 0;
};

/** `[`/`test`: the subset Appium and scripts use, evaluated for real. */
function evaluateTest(args: readonly string[], device: ShellDevice): boolean {
  if (args.length === 0) return false;
  if (args[0] === '!') return !evaluateTest(args.slice(1), device);
  const andAt = args.indexOf('-a');
  if (andAt > 0) return evaluateTest(args.slice(0, andAt), device) && evaluateTest(args.slice(andAt + 1), device);
  const orAt = args.indexOf('-o');
  if (orAt > 0) return evaluateTest(args.slice(0, orAt), device) || evaluateTest(args.slice(orAt + 1), device);
  if (args.length === 1) return (args[0] ?? '') !== '';
  if (args.length === 2) {
    const [op, operand = ''] = args;
    const stat = device.system.stat(operand);
    switch (op) {
      case '-e':
        return stat !== null;
      case '-f':
        return stat !== null && (stat.mode & 0o170000) === 0o100000;
      case '-d':
        return stat !== null && (stat.mode & 0o170000) === 0o040000;
      case '-s':
        return stat !== null && stat.size > 0;
      case '-r':
      case '-w':
        return stat !== null;
      case '-x':
        return stat !== null && (stat.mode & 0o111) !== 0;
      case '-z':
        return operand === '';
      case '-n':
        return operand !== '';
      default:
        return false;
    }
  }
  const [a = '', op, b = ''] = args;
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '-eq':
      return Number(a) === Number(b);
    case '-ne':
      return Number(a) !== Number(b);
    case '-lt':
      return Number(a) < Number(b);
    case '-le':
      return Number(a) <= Number(b);
    case '-gt':
      return Number(a) > Number(b);
    case '-ge':
      return Number(a) >= Number(b);
    default:
      return false;
  }
}

function grep(io: CommandIo): number {
  let invert = false;
  let ignoreCase = false;
  let count = false;
  let quiet = false;
  let fixed = false;
  const rest: string[] = [];
  for (const arg of io.argv.slice(1)) {
    if (/^-[a-zA-Z]+$/.test(arg) && rest.length === 0) {
      for (const f of arg.slice(1)) {
        if (f === 'v') invert = true;
        else if (f === 'i') ignoreCase = true;
        else if (f === 'c') count = true;
        else if (f === 'q') quiet = true;
        else if (f === 'F') fixed = true;
      }
    } else rest.push(arg);
  }
  const pattern = rest[0];
  if (pattern === undefined) {
    io.err('usage: grep [-civqF] PATTERN\n');
    return 2;
  }
  const re = new RegExp(fixed ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern, ignoreCase ? 'i' : '');
  const lines = io.stdin.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const matched = lines.filter((l) => re.test(l) !== invert);
  if (count) io.out(`${matched.length}\n`);
  else if (!quiet) for (const l of matched) io.out(`${l}\n`);
  return matched.length > 0 ? 0 : 1;
}

export function registerBasicCommands(table: CommandTable, device: ShellDevice): void {
  const fs = device.system;
  const add = (names: string[], handler: CommandHandler): void => {
    for (const n of names) table.set(n, handler);
  };

  add(['true'], () => 0);
  add(['false'], () => 1);
  add(['echo'], (io) => {
    let args = io.argv.slice(1);
    let newline = true;
    let escapes = false;
    while (args[0] === '-n' || args[0] === '-e') {
      if (args[0] === '-n') newline = false;
      else escapes = true;
      args = args.slice(1);
    }
    let text = args.join(' ');
    if (escapes) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
    return ok(io, newline ? `${text}\n` : text);
  });
  add(['test'], (io) => (evaluateTest(io.argv.slice(1), device) ? 0 : 1));
  add(['['], (io) => {
    const args = io.argv.slice(1);
    if (args[args.length - 1] !== ']') {
      io.err('[: missing ]\n');
      return 2;
    }
    return evaluateTest(args.slice(0, -1), device) ? 0 : 1;
  });
  add(['cat'], (io) => {
    const paths = io.argv.slice(1).filter((a) => a !== '--');
    if (paths.length === 0) return ok(io, io.stdin.toString('utf8'));
    let status = 0;
    for (const p of paths) {
      const data = fs.readFile(p);
      if (data) io.out(data);
      else {
        io.err(`cat: ${p}: ${fs.isDirectory(p) ? 'Is a directory' : 'No such file or directory'}\n`);
        status = 1;
      }
    }
    return status;
  });
  add(['mkdir'], (io) => {
    const args = io.argv.slice(1);
    const parents = args.some((a) => /^-[a-z]*p/.test(a));
    let status = 0;
    for (const p of args.filter((a) => !a.startsWith('-'))) {
      const problem = fs.mkdir(p, parents);
      if (problem) {
        io.err(`mkdir: '${p}': ${problem}\n`);
        status = 1;
      }
    }
    return status;
  });
  add(['rm'], (io) => {
    const args = io.argv.slice(1);
    const flags = args.filter((a) => /^-[a-zA-Z]+$/.test(a)).join('');
    const force = flags.includes('f');
    const recursive = /[rR]/.test(flags);
    let status = 0;
    for (const p of args.filter((a) => !a.startsWith('-'))) {
      const targets = p.includes('*') ? fs.glob(p) : [p];
      for (const t of targets) {
        const problem = fs.remove(t, recursive);
        if (problem && !(force && problem === 'No such file or directory')) {
          io.err(`rm: ${t}: ${problem}\n`);
          status = 1;
        }
      }
    }
    return status;
  });
  add(['touch'], (io) => {
    for (const p of io.argv.slice(1).filter((a) => !a.startsWith('-'))) {
      if (!fs.stat(p)) {
        const problem = fs.writeFile(p, Buffer.alloc(0));
        if (problem) {
          io.err(`touch: '${p}': ${problem}\n`);
          return 1;
        }
      }
    }
    return 0;
  });
  add(['chmod', 'chown', 'sync', 'svc', 'ime', 'locksettings', 'setenforce'], () => 0);
  add(['ls'], (io) => {
    const paths = io.argv.slice(1).filter((a) => !a.startsWith('-'));
    let status = 0;
    for (const p of paths.length > 0 ? paths : ['/']) {
      const names = fs.list(p);
      if (names) io.out(names.map((n) => `${n}\n`).join(''));
      else if (fs.stat(p)) io.out(`${p}\n`);
      else {
        io.err(`ls: ${p}: No such file or directory\n`);
        status = 1;
      }
    }
    return status;
  });
  add(['sleep'], async (io) => {
    const seconds = Number(io.argv[1] ?? '0');
    await device.clock.sleep(Number.isFinite(seconds) ? seconds * 1000 : 0, io.signal);
    return 0;
  });
  add(['id'], (io) =>
    ok(
      io,
      'uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats) context=u:r:shell:s0\n',
    ),
  );
  add(['whoami'], (io) => ok(io, 'shell\n'));
  add(['grep'], grep);
  add(['date'], (io) => {
    const now = new Date(device.clock.nowMs());
    const fmt = io.argv[1];
    if (fmt === '+%s') return ok(io, `${Math.floor(now.getTime() / 1000)}\n`);
    if (fmt?.startsWith('+')) return ok(io, `${now.toISOString().slice(0, 19)}+0000\n`);
    return ok(io, `${now.toUTCString().replace('GMT', 'UTC')}\n`);
  });
  add(['sh'], async (io) => {
    const c = io.argv.indexOf('-c');
    const script = c >= 0 ? io.argv[c + 1] : io.stdin.toString('utf8');
    return device.runNested(script ?? '', io.out, io.err, io.signal);
  });

  add(['getprop'], (io) => {
    const key = io.argv[1];
    if (key === undefined) {
      const lines = [...fs.props.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `[${k}]: [${v}]\n`);
      return ok(io, lines.join(''));
    }
    return ok(io, `${fs.props.get(key) ?? io.argv[2] ?? ''}\n`);
  });
  add(['setprop'], (io) => {
    const [, key, value] = io.argv;
    if (key === undefined || value === undefined) {
      io.err('setprop: Need 2 arguments\n');
      return 1;
    }
    fs.props.set(key, value);
    return 0;
  });
  add(['settings'], (io) => {
    const args = io.argv.slice(1).filter((a, i, all) => !(a === '--user' || all[i - 1] === '--user'));
    const [verb, namespace = '', key, ...valueParts] = args;
    const table = fs.settingsNamespace(namespace);
    if (!verb || !table) {
      io.err(
        'usage:  settings [--user <USER_ID> | current] get namespace key\n        settings [--user <USER_ID> | current] put namespace key value\n',
      );
      return 255;
    }
    switch (verb) {
      case 'get':
        return ok(io, `${key !== undefined ? (table.get(key) ?? 'null') : 'null'}\n`);
      case 'put':
        if (key === undefined || valueParts.length === 0) {
          io.err('Invalid argument: missing value\n');
          return 255;
        }
        table.set(key, valueParts.join(' '));
        return 0;
      case 'delete':
        if (key === undefined) return 255;
        return ok(io, `Deleted ${table.delete(key) ? 1 : 0} rows\n`);
      case 'list':
        return ok(io, [...table.entries()].map(([k, v]) => `${k}=${v}\n`).join(''));
      default:
        io.err(`Invalid command: ${verb}\n`);
        return 255;
    }
  });
  add(['wm'], (io) => {
    const [, sub, value] = io.argv;
    if (sub === 'density') {
      if (value === 'reset') fs.densityOverride = null;
      else if (value !== undefined) {
        const n = Number.parseInt(value, 10);
        if (!Number.isInteger(n) || n <= 0) {
          io.err(`Error: bad number ${value}\n`);
          return 255;
        }
        fs.densityOverride = n;
        device.ui.version++;
      } else
        return ok(
          io,
          `Physical density: ${PHYSICAL_DENSITY}\n${fs.densityOverride !== null ? `Override density: ${fs.densityOverride}\n` : ''}`,
        );
      return 0;
    }
    if (sub === 'size') {
      if (value === 'reset') fs.sizeOverride = null;
      else if (value !== undefined) fs.sizeOverride = value;
      else
        return ok(
          io,
          `Physical size: ${device.traits.activeDisplay().width}x${device.traits.activeDisplay().height}\n${fs.sizeOverride !== null ? `Override size: ${fs.sizeOverride}\n` : ''}`,
        );
      return 0;
    }
    if (sub === 'dismiss-keyguard') return 0;
    io.err(`Error: unknown command '${sub ?? ''}'\n`);
    return 255;
  });
}
