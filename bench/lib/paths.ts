import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file's location (bench/lib/paths.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Shared, read-only material lives beside the repository; it is never copied into it. */
export const FIXTURES_DIR = resolve(REPO_ROOT, '..', 'shared', 'fixtures');
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

export interface Fixture {
  /** `dumps/x.xml` or `appium-source/x.xml`. */
  readonly name: string;
  readonly path: string;
  readonly shape: 'uiautomator' | 'appium';
}

/** Every dump of ../shared/fixtures, or null when the folder is absent (a clone without shared/). */
export function listFixtures(): Fixture[] | null {
  if (!existsSync(FIXTURES_DIR)) return null;
  const out: Fixture[] = [];
  for (const [sub, shape] of [
    ['dumps', 'uiautomator'],
    ['appium-source', 'appium'],
  ] as const) {
    const dir = join(FIXTURES_DIR, sub);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) {
      if (file.endsWith('.xml')) out.push({ name: `${sub}/${file}`, path: join(dir, file), shape });
    }
  }
  return out;
}
