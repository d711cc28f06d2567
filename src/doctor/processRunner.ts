import { execFile } from 'node:child_process';

/** What a doctor check learns from running a program: never throws. */
export interface ProcessOutcome {
  /** null when the program did not run to an exit code (see `failure`). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why there is no exit code: the program is missing, timed out, or could not start. */
  readonly failure?: 'not-found' | 'timeout' | 'error';
}

export interface ProcessRunner {
  run(
    file: string,
    args: readonly string[],
    options: { env: NodeJS.ProcessEnv; timeoutMs: number },
  ): Promise<ProcessOutcome>;
}

/** execFile with an argument vector and a timeout: no shell ever parses anything. */
export const execFileRunner: ProcessRunner = {
  run(file, args, { env, timeoutMs }) {
    return new Promise((resolve) => {
      execFile(
        file,
        [...args],
        {
          env,
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: 16 * 1024 * 1024,
          windowsHide: true,
          shell: false,
        },
        (error, stdout, stderr) => {
          const out = { stdout: String(stdout ?? ''), stderr: String(stderr ?? '') };
          if (!error) return resolve({ exitCode: 0, ...out });
          if (error.code === 'ENOENT' || error.code === 'EACCES')
            return resolve({ exitCode: null, failure: 'not-found', ...out });
          if (error.killed || error.signal === 'SIGKILL')
            return resolve({ exitCode: null, failure: 'timeout', ...out });
          if (typeof error.code === 'number') return resolve({ exitCode: error.code, ...out });
          resolve({ exitCode: null, failure: 'error', ...out, stderr: out.stderr || error.message });
        },
      );
    });
  },
};
