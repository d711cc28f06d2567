/** Full size: every accepted hostile value through the real stack, and 50,000 protocol frames. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { it } from 'vitest';
import { REPO_ROOT } from '../support/appium.js';

function runCiSuite(file: string, env: Record<string, string>): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', file], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
}

it('injection with every accepted value (RELIABILITY_FULL=1)', () => {
  runCiSuite('test/integration/reliabilityInjection.test.ts', { RELIABILITY_FULL: '1' });
});

it('protocol robustness with 50,000 frames', () => {
  runCiSuite('test/integration/reliabilityProtocol.test.ts', { RELIABILITY_PROTOCOL_FRAMES: '50000' });
});
