import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const KEY = 'sk-ant-unit-0123456789';

function load(env: Record<string, string>): { config: ReturnType<typeof loadConfig>; warnings: string[] } {
  const warnings: string[] = [];
  const config = loadConfig(env, (message) => warnings.push(message), '/work', '/home/u');
  return { config, warnings };
}

describe('the model behind goal tasks', () => {
  it('is off, silently, when no provider is set', () => {
    const { config, warnings } = load({ ANTHROPIC_API_KEY: KEY, ANDROID_MCP_MODEL: 'claude-x' });
    expect(config.model).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('reads provider, model, the provider default base URL and the provider key variable', () => {
    const { config, warnings } = load({
      ANDROID_MCP_MODEL_PROVIDER: ' Anthropic ',
      ANDROID_MCP_MODEL: 'claude-x',
      ANTHROPIC_API_KEY: KEY,
    });
    expect(warnings).toEqual([]);
    expect(config.model).toMatchObject({
      provider: 'anthropic',
      model: 'claude-x',
      baseUrl: 'https://api.anthropic.com',
      apiKeyVariable: 'ANTHROPIC_API_KEY',
    });
    expect(config.model?.apiKey.reveal()).toBe(KEY);
    const openai = load({ ANDROID_MCP_MODEL_PROVIDER: 'openai', ANDROID_MCP_MODEL: 'gpt-x', OPENAI_API_KEY: 'sk-o' })
      .config.model;
    expect(openai).toMatchObject({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      apiKeyVariable: 'OPENAI_API_KEY',
    });
  });

  it('prefers ANDROID_MCP_MODEL_API_KEY, and keeps a base URL without its trailing slash', () => {
    const { config } = load({
      ANDROID_MCP_MODEL_PROVIDER: 'openai',
      ANDROID_MCP_MODEL: 'llama',
      ANDROID_MCP_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1/',
      ANDROID_MCP_MODEL_API_KEY: 'local',
      OPENAI_API_KEY: 'sk-other',
    });
    expect(config.model).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKeyVariable: 'ANDROID_MCP_MODEL_API_KEY',
    });
    expect(config.model?.apiKey.reveal()).toBe('local');
  });

  it.each([
    [
      { ANDROID_MCP_MODEL_PROVIDER: 'gemini', ANDROID_MCP_MODEL: 'g', ANDROID_MCP_MODEL_API_KEY: KEY },
      /not one of anthropic, openai/,
    ],
    [
      { ANDROID_MCP_MODEL_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: KEY },
      /ANDROID_MCP_MODEL \(the model name\) is not/,
    ],
    [
      { ANDROID_MCP_MODEL_PROVIDER: 'anthropic', ANDROID_MCP_MODEL: 'c' },
      /set ANDROID_MCP_MODEL_API_KEY or ANTHROPIC_API_KEY/,
    ],
    [
      {
        ANDROID_MCP_MODEL_PROVIDER: 'openai',
        ANDROID_MCP_MODEL: 'm',
        OPENAI_API_KEY: KEY,
        ANDROID_MCP_MODEL_BASE_URL: 'http://models.example:8000/v1',
      },
      /must be https/,
    ],
    [
      {
        ANDROID_MCP_MODEL_PROVIDER: 'openai',
        ANDROID_MCP_MODEL: 'm',
        OPENAI_API_KEY: KEY,
        ANDROID_MCP_MODEL_BASE_URL: 'https://u:p@models.example/v1',
      },
      /without credentials/,
    ],
    [
      {
        ANDROID_MCP_MODEL_PROVIDER: 'openai',
        ANDROID_MCP_MODEL: 'm',
        OPENAI_API_KEY: KEY,
        ANDROID_MCP_MODEL_BASE_URL: 'not a url',
      },
      /is not a URL/,
    ],
  ])('is off, with a warning that says why, for %j', (env, warning) => {
    const { config, warnings } = load(env);
    expect(config.model).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(warning);
    expect(warnings[0]).toMatch(/goal tasks are refused/);
    expect(warnings[0]).not.toContain(KEY);
  });

  it('never shows the key when the configuration is serialised, printed or inspected', () => {
    const { config } = load({
      ANDROID_MCP_MODEL_PROVIDER: 'anthropic',
      ANDROID_MCP_MODEL: 'claude-x',
      ANTHROPIC_API_KEY: KEY,
    });
    expect(JSON.stringify(config)).not.toContain(KEY);
    expect(inspect(config, { depth: 10 })).not.toContain(KEY);
    expect(`${String(config.model?.apiKey)}`).toBe('[secret]');
    expect(JSON.stringify(config.model)).toContain('"apiKey":"[secret]"');
  });
});
