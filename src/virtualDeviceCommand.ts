/**
 * `android-mcp-harness virtual-device …`: starts the virtual Android device, which is its own
 * package (packages/virtual-device, published as android-mcp-virtual-device). A checkout links it
 * as a workspace; an installed harness does not carry it (nor its native canvas and fonts), so
 * this command then says how to get it instead of failing on a missing module.
 */
import { fileURLToPath } from 'node:url';

const PACKAGE = 'android-mcp-virtual-device';

interface VirtualDeviceCli {
  runVirtualDeviceCli(
    argv: readonly string[],
    host: { readonly program: string; readonly harnessCommand: readonly string[] },
  ): Promise<number>;
}

export async function runVirtualDevice(argv: readonly string[]): Promise<number> {
  let cli: VirtualDeviceCli;
  try {
    // The specifier is a variable on purpose: the harness has no build-time dependency on the double.
    const specifier = `${PACKAGE}/cli`;
    cli = (await import(specifier)) as VirtualDeviceCli;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND') throw error;
    process.stderr.write(
      `android-mcp-harness: the virtual device is its own package and is not installed here. ` +
        `Run it with \`npx -y ${PACKAGE} --port 5555\` (in a checkout of the harness: \`npm run build\` first).\n`,
    );
    return 2;
  }
  const entry = fileURLToPath(new URL('./index.js', import.meta.url));
  return cli.runVirtualDeviceCli(argv, {
    program: 'android-mcp-harness virtual-device',
    harnessCommand: ['node', entry],
  });
}
