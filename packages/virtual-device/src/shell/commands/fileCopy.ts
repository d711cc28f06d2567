/**
 * Toybox `cp` and `mv` on files (what a peer does after `adb push`: move its helper into place),
 * and `run-as`, which a user build refuses for a package that is not debuggable. Messages as
 * toybox prints them (cp.c: `perror_msg("bad '%s'", src)`) and as AOSP's run-as.cpp does
 * (`error(1, 0, "package not debuggable: %s", pkg)`, after "unknown package" for one not installed).
 */
import type { CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';

function copyOrMove(io: CommandIo, device: ShellDevice, move: boolean): number {
  const name = move ? 'mv' : 'cp';
  const fs = device.system;
  const paths = io.argv.slice(1).filter((a) => !a.startsWith('-'));
  if (paths.length < 2) {
    io.err(`${name}: Need 2 arguments\n`);
    return 1;
  }
  const target = paths.at(-1) as string;
  const sources = paths.slice(0, -1);
  const intoDirectory = fs.isDirectory(target);
  if (sources.length > 1 && !intoDirectory) {
    io.err(`${name}: '${target}' not directory\n`);
    return 1;
  }
  let status = 0;
  for (const source of sources) {
    const data = fs.readFile(source);
    const stat = fs.stat(source);
    if (!data || !stat) {
      io.err(`${name}: bad '${source}': ${fs.isDirectory(source) ? 'Is a directory' : 'No such file or directory'}\n`);
      status = 1;
      continue;
    }
    const destination = intoDirectory
      ? `${target.replace(/\/+$/, '')}/${source.slice(source.lastIndexOf('/') + 1)}`
      : target;
    const problem = fs.writeFile(destination, data, { mode: stat.mode & 0o7777 });
    if (problem) {
      io.err(`${name}: '${destination}': ${problem}\n`);
      status = 1;
      continue;
    }
    if (move) fs.remove(source, false);
  }
  return status;
}

export function registerFileCopy(table: CommandTable, device: ShellDevice): void {
  table.set('cp', (io) => copyOrMove(io, device, false));
  table.set('mv', (io) => copyOrMove(io, device, true));
  table.set('run-as', (io) => {
    const pkg = io.argv[1];
    if (!pkg) {
      io.err('run-as: usage: run-as <package-name> [--user <uid>] <command> [<args>]\n');
      return 1;
    }
    const known = device.system.installed.has(pkg);
    // The scenario's apps are release builds: none is debuggable, as on a user build's store apps.
    io.err(`run-as: ${known ? 'package not debuggable' : 'unknown package'}: ${pkg}\n`);
    return 1;
  });
}
