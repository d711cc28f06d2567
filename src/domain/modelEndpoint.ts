/**
 * The model endpoint behind goal tasks, read from the environment: which provider, which model,
 * where, and with which key. Nothing here talks to the endpoint; the adapters in
 * src/infrastructure/model do, from this description.
 */
import { Secret } from './secret.js';

type Warn = (msg: string) => void;

export const MODEL_PROVIDERS = ['anthropic', 'openai'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** The model behind goal tasks: set only when a provider, a model name and a key are all given. */
export interface ModelConfig {
  readonly provider: ModelProvider;
  /** ANDROID_MCP_MODEL, as the endpoint names it. */
  readonly model: string;
  /** ANDROID_MCP_MODEL_BASE_URL, else the SDK's default for the provider; https, or http on loopback only. */
  readonly baseUrl: string;
  /** Shown as `[secret]` wherever the configuration is printed. */
  readonly apiKey: Secret;
  /** Which variable held the key: said in warnings and `doctor`, never its value. */
  readonly apiKeyVariable: string;
}

/** The SDKs' own defaults, written here so the configuration says where the key goes. */
export const MODEL_DEFAULT_BASE_URLS: Readonly<Record<ModelProvider, string>> = Object.freeze({
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
});
/** The provider's own key variable, read when ANDROID_MCP_MODEL_API_KEY is unset. */
const PROVIDER_KEY_VARIABLES: Readonly<Record<ModelProvider, string>> = Object.freeze({
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
});

const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The model endpoint, or null with a warning. A key travels with every request, so plain http is
 * accepted on loopback only (a local server); elsewhere https. A bad value disables goal tasks
 * rather than falling back to the provider's default: that would send the key somewhere else than
 * the user meant.
 */
export function readModel(env: Readonly<Record<string, string | undefined>>, warn: Warn): ModelConfig | null {
  const providerRaw = env.ANDROID_MCP_MODEL_PROVIDER?.trim().toLowerCase() ?? '';
  if (providerRaw === '') return null;
  const provider = MODEL_PROVIDERS.find((p) => p === providerRaw);
  if (!provider) {
    warn(
      `ANDROID_MCP_MODEL_PROVIDER=${JSON.stringify(providerRaw.slice(0, 40))} is not one of ${MODEL_PROVIDERS.join(', ')}; goal tasks are refused.`,
    );
    return null;
  }
  const model = env.ANDROID_MCP_MODEL?.trim() ?? '';
  if (model === '') {
    warn('ANDROID_MCP_MODEL_PROVIDER is set but ANDROID_MCP_MODEL (the model name) is not; goal tasks are refused.');
    return null;
  }
  const baseUrl = readModelBaseUrl(env.ANDROID_MCP_MODEL_BASE_URL?.trim() ?? '', provider, warn);
  if (baseUrl === null) return null;
  const keyVariable = env.ANDROID_MCP_MODEL_API_KEY?.trim()
    ? 'ANDROID_MCP_MODEL_API_KEY'
    : PROVIDER_KEY_VARIABLES[provider];
  const key = env[keyVariable]?.trim() ?? '';
  if (key === '') {
    warn(
      `No API key for the ${provider} model: set ANDROID_MCP_MODEL_API_KEY or ${PROVIDER_KEY_VARIABLES[provider]} (any value for a local server that needs none); goal tasks are refused.`,
    );
    return null;
  }
  return Object.freeze({ provider, model, baseUrl, apiKey: new Secret(key), apiKeyVariable: keyVariable });
}

function readModelBaseUrl(raw: string, provider: ModelProvider, warn: Warn): string | null {
  if (raw === '') return MODEL_DEFAULT_BASE_URLS[provider];
  if (!URL.canParse(raw)) {
    warn(`ANDROID_MCP_MODEL_BASE_URL=${JSON.stringify(raw.slice(0, 100))} is not a URL; goal tasks are refused.`);
    return null;
  }
  const url = new URL(raw);
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname));
  if (!secure || url.username !== '' || url.password !== '') {
    warn(
      'ANDROID_MCP_MODEL_BASE_URL must be https (or http on 127.0.0.1, localhost or [::1]), without credentials in it; goal tasks are refused.',
    );
    return null;
  }
  return raw.replace(/\/+$/, '');
}
