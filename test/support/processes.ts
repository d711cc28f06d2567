import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A sidecar that outlives a killed test worker: every 300 ms it checks that the test process
 * (argv[1]) is alive; once it is gone, it ends the child (argv[2]) by pid, SIGTERM then SIGKILL.
 * It exits by itself as soon as the child is gone.
 */
const WATCHDOG_SOURCE = `
const [parent, child] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const timer = setInterval(() => {
  if (!alive(child)) process.exit(0);
  if (alive(parent)) return;
  clearInterval(timer);
  try { process.kill(child, 'SIGTERM'); } catch {}
  setTimeout(() => { try { process.kill(child, 'SIGKILL'); } catch {} process.exit(0); }, 3000);
}, 300);
`;

/**
 * Makes sure a child this test process started (an adb server, Appium) is ended by its pid
 * even if the test process dies without calling stop() (a failing hook, a worker killed by the
 * runner): a test must never leave a server running on the machine.
 */
export function trackChild(child: ChildProcess): void {
  if (child.pid === undefined) return;
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, String(process.pid), String(child.pid)], {
    stdio: 'ignore',
    detached: true,
  });
  watchdog.unref();
}

/**
 * Ends a process this test started, by its pid: SIGTERM, then SIGKILL if it is still
 * alive after graceMs. Resolves once it has exited.
 */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a process with this pid exists (signal 0 probes it without delivering anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits up to graceMs for a process this test started (and asked to stop) to be gone, then
 * ends it by its pid with SIGKILL if it is still there.
 */
export async function awaitExitOrKill(pid: number, graceMs: number, pollMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(pollMs);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** Direct children of `pid` whose command line runs Appium (Linux /proc). */
export function appiumChildren(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(`appium${path.sep}index.js`)) found.push(Number(entry));
    } catch {
      // The process went away while we looked.
    }
  }
  return found;
}
