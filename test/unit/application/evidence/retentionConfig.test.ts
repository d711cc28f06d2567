import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../../src/config.js';

function retention(env: NodeJS.ProcessEnv) {
  const warnings: string[] = [];
  const config = loadConfig(env, (m) => warnings.push(m), '/work/project', '/home/alice');
  expect(warnings).toEqual([]);
  return config.artifactsRetention;
}

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env, () => undefined, '/work/project', '/home/alice');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('the evidence retention bound in the configuration', () => {
  it('defaults to 500 files or 200 MB, and blank values mean the default', () => {
    expect(retention({})).toEqual({ maxFiles: 500, maxBytes: 200 * 1024 * 1024 });
    expect(retention({ ANDROID_MCP_ARTIFACTS_MAX_FILES: '  ', ANDROID_MCP_ARTIFACTS_MAX_MB: '' })).toEqual({
      maxFiles: 500,
      maxBytes: 200 * 1024 * 1024,
    });
  });

  it('reads whole files, megabytes with decimals (MiB), and 0 as no such bound', () => {
    expect(retention({ ANDROID_MCP_ARTIFACTS_MAX_FILES: ' 3 ', ANDROID_MCP_ARTIFACTS_MAX_MB: '0.3' })).toEqual({
      maxFiles: 3,
      maxBytes: Math.round(0.3 * 1048576),
    });
    expect(retention({ ANDROID_MCP_ARTIFACTS_MAX_FILES: '0', ANDROID_MCP_ARTIFACTS_MAX_MB: '1024' })).toEqual({
      maxFiles: null,
      maxBytes: 1024 * 1048576,
    });
    expect(retention({ ANDROID_MCP_ARTIFACTS_MAX_FILES: '0', ANDROID_MCP_ARTIFACTS_MAX_MB: '0' })).toEqual({
      maxFiles: null,
      maxBytes: null,
    });
  });

  it('refuses to start on a value that is not one, saying what is accepted and why it does not guess', () => {
    expect(refusal({ ANDROID_MCP_ARTIFACTS_MAX_FILES: 'lots' })).toBe(
      'ANDROID_MCP_ARTIFACTS_MAX_FILES="lots" is not usable: give a whole number of files up to 1000000, or 0 for no such bound (default 500). ' +
        'The server did not start: another bound than the one meant could remove evidence you want to keep.',
    );
    expect(refusal({ ANDROID_MCP_ARTIFACTS_MAX_MB: '2GB' })).toBe(
      'ANDROID_MCP_ARTIFACTS_MAX_MB="2GB" is not usable: give a number of megabytes (MiB, decimals allowed) up to 1000000, or 0 for no such bound (default 200). ' +
        'The server did not start: another bound than the one meant could remove evidence you want to keep.',
    );
    for (const files of ['2.5', '-1', '1e9', 'Infinity', 'NaN', '0x10'])
      expect(refusal({ ANDROID_MCP_ARTIFACTS_MAX_FILES: files })).toContain('ANDROID_MCP_ARTIFACTS_MAX_FILES=');
    for (const mb of ['-0.5', 'Infinity', '1e7', 'ten'])
      expect(refusal({ ANDROID_MCP_ARTIFACTS_MAX_MB: mb })).toContain('ANDROID_MCP_ARTIFACTS_MAX_MB=');
  });
});
