/**
 * `abb_exec:<arg>\0<arg>\0…`: Android Binder Bridge, which adb 29 uses for
 * `adb install` / `adb uninstall` when the banner advertises `abb_exec`.
 * A `package` command carrying `-S <size>` streams that many bytes (the APK)
 * before the device answers.
 */
import type { DeviceServices } from '../contracts.js';
import type { ServiceStream } from './stream.js';

export function parseAbbExecService(service: string): string[] | null {
  if (!service.startsWith('abb_exec:')) return null;
  const args = service.slice('abb_exec:'.length).split('\0');
  while (args.length > 0 && args[args.length - 1] === '') args.pop();
  return args;
}

/** The streamed payload size announced by `-S <size>`, or null when nothing is streamed. */
export function streamedSize(args: readonly string[]): number | null {
  const flag = args.indexOf('-S');
  if (flag < 0) return null;
  const size = Number(args[flag + 1]);
  return Number.isSafeInteger(size) && size >= 0 ? size : null;
}

export function runAbbExecService(stream: ServiceStream, services: DeviceServices, args: readonly string[]): void {
  const reply = (produce: () => string | Promise<string>): void => {
    const failure = (error: unknown): string => `Failure [${error instanceof Error ? error.message : String(error)}]\n`;
    const send = (text: string): void => {
      stream.write(text);
      stream.end();
    };
    let answer: string | Promise<string>;
    try {
      answer = produce();
    } catch (error) {
      answer = failure(error);
    }
    // The package manager judges the APK asynchronously; the status line follows once it has.
    Promise.resolve(answer).then(send, (error: unknown) => send(failure(error)));
  };

  const size = args[0] === 'package' ? streamedSize(args) : null;
  if (size === null) {
    reply(() => services.runAbb(args));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let answered = false;
  const answerOnceComplete = (): void => {
    if (answered || received < size) return;
    answered = true;
    const apk = Buffer.concat(chunks).subarray(0, size);
    reply(() => services.installPackage(args, apk));
  };
  stream.onData((chunk) => {
    chunks.push(chunk);
    received += chunk.length;
    answerOnceComplete();
  });
  answerOnceComplete();
}
