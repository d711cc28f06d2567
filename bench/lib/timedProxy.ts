/**
 * Timing Appium from outside the harness: a pass-through HTTP proxy on 127.0.0.1 in the bench's
 * process. The harness is pointed at it with APPIUM_URL; every request is forwarded unchanged to the
 * real Appium and its wall-clock start (first byte received) and end (last byte sent back) are recorded.
 * The proxy hop (loopback, well under a millisecond) is counted on Appium's side of the split.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Interval } from './timedAdb.js';

const nowEpochMs = (): number => performance.timeOrigin + performance.now();

export interface TimedProxy {
  readonly url: string;
  intervals(): Interval[];
  close(): Promise<void>;
}

export async function startTimedProxy(target: string): Promise<TimedProxy> {
  const upstream = new URL(target);
  const log: Interval[] = [];
  const server: Server = createServer((req, res) => {
    const start = nowEpochMs();
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => log.push({ start, end: nowEpochMs(), what: `${req.method} ${req.url}` }));
      },
    );
    forward.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    intervals: () => [...log],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Length of the union of intervals clipped to [from, to]: time the call spent waiting on them. */
export function coveredMs(intervals: readonly Interval[], from: number, to: number): number {
  const clipped = intervals
    .map((i) => [Math.max(i.start, from), Math.min(i.end, to)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const [a, b] of clipped) {
    if (a > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = a;
      curEnd = b;
    } else curEnd = Math.max(curEnd, b);
  }
  if (curEnd > curStart) total += curEnd - curStart;
  return total;
}
