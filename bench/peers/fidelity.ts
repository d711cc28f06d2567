/**
 * Proof that the mobile-mcp rebuild says what the published package says: when the peer is installed
 * in the scratch folder, its own AndroidRobot.collectElements and formatElements (from its lib/) run on
 * the same parsed dumps, and both outputs must be byte-identical to ours. (appium-mcp is not on the
 * npm registry this machine reaches, so its rebuild rests on reading its sources; see appiumMcp.ts.)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { listFixtures } from '../lib/paths.js';
import { formatMobileMcpJson, formatMobileMcpText, mobileMcpElements } from './mobileMcp.js';
import { toUiautomatorShape } from './shapes.js';

export interface FidelityResult {
  readonly status: 'checked' | 'not checked';
  readonly reason?: string;
  readonly files: number;
  readonly identical: number;
  readonly mismatches: string[];
}

interface PeerRobotModule {
  AndroidRobot: { prototype: { collectElements(node: unknown): unknown[] } };
}
interface PeerFormatModule {
  formatElements(elements: unknown[], format: 'json' | 'text'): string;
}
interface ParserModule {
  XMLParser: new (opts: object) => { parse(xml: string): { hierarchy?: { node?: unknown } } };
}

export function checkMobileMcpFidelity(packageDir: string | null): FidelityResult {
  if (packageDir === null)
    return { status: 'not checked', reason: 'mobile-mcp is not installed', files: 0, identical: 0, mismatches: [] };
  const fixtures = listFixtures();
  if (fixtures === null)
    return { status: 'not checked', reason: '../shared/fixtures is absent', files: 0, identical: 0, mismatches: [] };
  try {
    const req = createRequire(join(packageDir, 'package.json'));
    const robot = req('./lib/android.js') as PeerRobotModule;
    const format = req('./lib/format-elements.js') as PeerFormatModule;
    const parser = req('fast-xml-parser') as ParserModule;
    let identical = 0;
    const mismatches: string[] = [];
    for (const f of fixtures) {
      const xml = toUiautomatorShape(readFileSync(f.path, 'utf8'), f.shape);
      const parsed = new parser.XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
      const theirs = robot.AndroidRobot.prototype.collectElements.call(
        robot.AndroidRobot.prototype,
        parsed.hierarchy?.node,
      );
      const ours = mobileMcpElements(xml);
      const same =
        format.formatElements(theirs, 'json') === formatMobileMcpJson(ours) &&
        format.formatElements(theirs, 'text') === formatMobileMcpText(ours);
      if (same) identical++;
      else mismatches.push(f.name);
    }
    return { status: 'checked', files: fixtures.length, identical, mismatches };
  } catch (err) {
    return {
      status: 'not checked',
      reason: `could not load the peer's lib: ${err instanceof Error ? err.message : String(err)}`,
      files: 0,
      identical: 0,
      mismatches: [],
    };
  }
}
