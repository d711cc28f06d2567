import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChildProcessLauncher,
  directLauncher,
  LauncherStoppedError,
  type LaunchOptions,
} from '../../../src/infrastructure/process/ProcessLauncher.js';

/** A real program for the launcher to run: this Node, with a script that says what to print and how to end. */
const NODE = process.execPath;
const options: LaunchOptions = {
  timeoutMs: 10_000,
  maxBuffer: 64 * 1024 * 1024,
  env: { PATH: process.env.PATH ?? '' },
};
const script = (body: string): string[] => ['-e', body];

const launcher = new ChildProcessLauncher();
afterAll(() => launcher.close());

describe('the process launcher (adb is started from a small process of its own)', () => {
  it('answers many interleaved launches each with its own stdout, stderr and exit code, binary and large output intact', async () => {
    const big = 5 * 1024 * 1024;
    const runs = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) =>
        launcher.launch(
          NODE,
          script(`process.stdout.write('out-${i}'); process.stderr.write('err-${i}'); process.exit(${i % 3})`),
          options,
        ),
      ),
      launcher.launch(NODE, script(`process.stdout.write(Buffer.alloc(${big}, 7))`), options),
      launcher.launch(NODE, script(`process.stdout.write(Buffer.from([0, 255, 10, 13, 0]))`), options),
    ]);
    for (let i = 0; i < 12; i++) {
      const run = runs[i];
      expect(run?.stdout.toString('utf8')).toBe(`out-${i}`);
      expect(run?.stderr.toString('utf8')).toBe(`err-${i}`);
      expect(run?.error?.code ?? 0).toBe(i % 3);
    }
    const large = runs[12]?.stdout;
    expect(large?.length).toBe(big);
    expect(large?.every((b) => b === 7)).toBe(true);
    expect([...(runs[13]?.stdout ?? [])]).toEqual([0, 255, 10, 13, 0]);
    expect(launcher.pid).toBeTypeOf('number');
  });

  it('reports what execFile reports: a missing program, a timeout (killed), too much output', async () => {
    const missing = await launcher.launch('/nonexistent/adb', ['devices'], options);
    expect(missing.error?.code).toBe('ENOENT');
    const slow = await launcher.launch(NODE, script('setTimeout(() => {}, 60000)'), { ...options, timeoutMs: 300 });
    expect(slow.error).toMatchObject({ killed: true, signal: 'SIGKILL' });
    const flood = await launcher.launch(NODE, script('process.stdout.write(Buffer.alloc(4096))'), {
      ...options,
      maxBuffer: 1024,
    });
    expect(flood.error?.code).toBe('ERR_CHILD_PROCESS_STDIO_MAXBUFFER');
    // The same outcomes as execFile in this process.
    const direct = await directLauncher.launch('/nonexistent/adb', ['devices'], options);
    expect(direct.error?.code).toBe('ENOENT');
  });

  it('passes the argument vector as is, with no shell: quotes, semicolons and $() stay text', async () => {
    const hostile = ['a b', "'quoted'", '$(touch /tmp/never)', 'x; rm -rf /', '"', '\\'];
    const run = await launcher.launch(
      NODE,
      ['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...hostile],
      options,
    );
    expect(JSON.parse(run.stdout.toString('utf8'))).toEqual(hostile);
  });

  it('fails the launches it was running when the launcher ends, and starts a new one for the next', async () => {
    const pending = launcher.launch(NODE, script('setTimeout(() => {}, 5000)'), options);
    const first = launcher.pid;
    expect(first).toBeTypeOf('number');
    process.kill(first as number, 'SIGKILL');
    await expect(pending).rejects.toBeInstanceOf(LauncherStoppedError);
    const next = await launcher.launch(NODE, script("process.stdout.write('again')"), options);
    expect(next.stdout.toString('utf8')).toBe('again');
    expect(launcher.pid).not.toBe(first);
  });

  it('does not keep the server alive once idle, and its process ends with the server', () => {
    // A real Node process that launches once and then has nothing left to do must exit by itself.
    const program = `
      import { ChildProcessLauncher } from './src/infrastructure/process/ProcessLauncher.ts';
      const l = new ChildProcessLauncher();
      const r = await l.launch(process.execPath, ['-e', 'process.stdout.write("ok")'], { timeoutMs: 5000, maxBuffer: 1024, env: process.env });
      process.stdout.write(r.stdout.toString() + ' ' + l.pid);
    `;
    const out = execFileSync(NODE, ['--import', 'tsx', '--input-type=module', '-e', program], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    const [said, pid] = out.trim().split(' ');
    expect(said).toBe('ok');
    // Its stdin closed with the server: the launcher is gone (or going) right after.
    const alive = (): boolean => {
      try {
        process.kill(Number(pid), 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5_000;
    while (alive() && Date.now() < deadline) execFileSync('sleep', ['0.05']);
    expect(alive()).toBe(false);
  });
});
