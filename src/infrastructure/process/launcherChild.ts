/**
 * The program of the launcher process (ProcessLauncher.ts), given to `node -e`: plain JavaScript in
 * a string, so that it runs the same from dist/, under vitest and from a bundle, with nothing to
 * resolve on disk. It reads one JSON request per line on stdin, runs it with execFile (an
 * executable and its argument vector, never a shell) and answers each with one binary frame on
 * stdout: a 4-byte big-endian header length, the JSON header
 * `{id, error, out, err}` (error: `{code, signal, killed, message}` or null; out and err: byte
 * lengths), then the stdout bytes and the stderr bytes. It exits when its stdin closes, which
 * happens when the server exits, however it exits.
 */
export const LAUNCHER_CHILD_SOURCE = String.raw`
'use strict';
const { execFile } = require('node:child_process');
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line.length > 0) run(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
function run(request) {
  const options = {
    encoding: 'buffer',
    timeout: request.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: request.maxBuffer,
    env: request.env,
    windowsHide: true,
    shell: false,
  };
  execFile(request.file, request.args, options, (error, stdout, stderr) => {
    const out = Buffer.from(stdout || []);
    const err = Buffer.from(stderr || []);
    const failure = error
      ? { code: error.code === undefined ? null : error.code, signal: error.signal || null, killed: error.killed === true, message: String(error.message) }
      : null;
    const head = Buffer.from(JSON.stringify({ id: request.id, error: failure, out: out.length, err: err.length }), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(head.length, 0);
    process.stdout.write(Buffer.concat([length, head, out, err])); // stdout-ok: the launcher's frames to the server over its own pipe, not the MCP channel
  });
}
`;
