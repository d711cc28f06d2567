/**
 * The install descriptions beside package.json: `server.json` for the MCP Registry, validated
 * against the registry's published schema (test/fixtures/mcp-registry, with its source), and
 * `manifest.json` for the MCP Bundle, validated by mcpb's own manifest schema. All three carry the
 * same version, and the registry's name is the package's `mcpName` (how the registry checks that
 * an npm package belongs to the server). Packing and starting the bundle: test/integration/bundle.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/appium.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function json<T>(...parts: string[]): T {
  return JSON.parse(readFileSync(join(REPO_ROOT, ...parts), 'utf8')) as T;
}

interface ServerJson {
  readonly $schema: string;
  readonly name: string;
  readonly version: string;
  readonly packages: readonly {
    readonly registryType: string;
    readonly identifier: string;
    readonly version: string;
    readonly environmentVariables: readonly { readonly name: string }[];
  }[];
}

const pkg = json<{ name: string; version: string; mcpName: string }>('package.json');
const schema = json<{ $id: string }>('test', 'fixtures', 'mcp-registry', 'server.schema.json');

function registryValidator() {
  // Strict, except for `required` names listed in an anyOf branch (valid JSON Schema, which ajv's lint flags).
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  // The registry's schema is generated from OpenAPI and keeps its annotations, which JSON Schema does not define.
  ajv.addVocabulary(['example', 'discriminator']);
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('server.json (MCP Registry)', () => {
  const server = json<ServerJson>('server.json');

  it('validates against the registry’s published schema, and names that schema', () => {
    const validate = registryValidator();
    expect(validate(server), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(server.$schema).toBe(schema.$id);
  });

  it('the validator can fail: a version range, a name without a namespace and an over-long description are refused', () => {
    const validate = registryValidator();
    expect(validate({ ...server, name: 'android-mcp-harness' })).toBe(false);
    expect(validate({ ...server, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...server, packages: [{ ...server.packages[0], version: 'latest' }] })).toBe(false);
  });

  it('carries package.json’s version and name (mcpName), and the variables the bundle asks for', () => {
    expect(server.version).toBe(pkg.version);
    expect(server.name).toBe(pkg.mcpName);
    const npm = server.packages.find((p) => p.registryType === 'npm');
    expect(npm).toMatchObject({ identifier: pkg.name, version: pkg.version });
    expect(npm?.environmentVariables.map((v) => v.name)).toEqual([
      'ANDROID_HOME',
      'ANDROID_UDID',
      'ANDROID_MCP_ALLOW_SERIALS',
      'APPIUM_URL',
      'ANDROID_MCP_TOOLSETS',
    ]);
  });
});

describe('manifest.json (MCP Bundle)', () => {
  const manifest = json<
    Record<string, unknown> & {
      version: string;
      server: { entry_point: string; mcp_config: { env: Record<string, string> } };
      user_config: Record<string, { required?: boolean; default?: unknown }>;
    }
  >('manifest.json');

  it('passes mcpb’s own manifest schema, declares the node server at dist/index.js, with package.json’s version', () => {
    expect(manifest.manifest_version).toBe('0.3');
    const parsed = MANIFEST_SCHEMAS['0.3'].safeParse(manifest);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.server).toMatchObject({
      type: 'node',
      entry_point: 'dist/index.js',
      mcp_config: { command: 'node', args: ['${__dirname}/dist/index.js'] },
    });
  });

  it('every setting is optional with an empty default, so a field left alone reaches the server as "" (unset), never as the literal ${user_config.…}', () => {
    expect(Object.values(manifest.server.mcp_config.env)).toEqual(
      Object.keys(manifest.user_config).map((key) => `\${user_config.${key}}`),
    );
    for (const [key, field] of Object.entries(manifest.user_config)) {
      expect(field.required, key).toBe(false);
      expect(field.default, key).toBe('');
    }
    expect(Object.keys(manifest.server.mcp_config.env)).toEqual([
      'ANDROID_HOME',
      'ANDROID_UDID',
      'ANDROID_MCP_ALLOW_SERIALS',
      'APPIUM_URL',
      'ANDROID_MCP_TOOLSETS',
    ]);
  });
});
