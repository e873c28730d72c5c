// Model configuration from CLI flags and environment: models by litellm-style names, on an OpenAI-compatible
// endpoint (OPENAI_BASE_URL / OPENAI_API_KEY), Anthropic (`anthropic/…`: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL) or
// Google (`gemini/…`: GEMINI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY, GOOGLE_GENERATIVE_AI_BASE_URL).
import { parsePyJson, pyFloat } from '../core/py/index.ts';
import type { LlmClient } from '../core/llm/types.ts';
import type { PyValue } from '../core/py/index.ts';
import type { ModelConfig } from '../core/agents/participant.ts';
import { createNativeClient, isOpenAIRoute, modelRoute, routedClient } from '../core/llm/native-client.ts';
import { createOpenAIEndpointClient } from '../core/llm/openai-endpoint.ts';
import { withApiBase } from '../core/llm/api-base.ts';
import type { NativeProvider } from '../core/llm/native-client.ts';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** `--*-llm-args` as a JSON object, keeping int/float kinds (e.g. `{"temperature": 0.0}`). */
export const parseLlmArgs = (text: string | undefined, fallback: Record<string, PyValue>): Record<string, PyValue> => {
  if (text === undefined) return fallback;
  const value = parsePyJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`LLM args must be a JSON object, got: ${text}`);
  }
  return value as Record<string, PyValue>;
};

/** Each native provider's key and API root from the environment (null: no credentials for it). */
export const nativeCredentials = (env: NodeJS.ProcessEnv): Record<NativeProvider, { apiKey: string; baseURL?: string } | null> => {
  const google = env.GEMINI_API_KEY ?? env.GOOGLE_GENERATIVE_AI_API_KEY;
  return {
    anthropic: env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) } : null,
    google: google ? { apiKey: google, ...(env.GOOGLE_GENERATIVE_AI_BASE_URL ? { baseURL: env.GOOGLE_GENERATIVE_AI_BASE_URL } : {}) } : null,
  };
};

/**
 * The client of every model: OpenAI-compatible names on the flag's endpoint, else OPENAI_BASE_URL, else OpenAI
 * (key OPENAI_API_KEY); `anthropic/…` and `gemini/…` on their providers with their keys.
 */
export const clientFor = (baseUrl: string | undefined): LlmClient => {
  const openaiAt = (baseURL: string): LlmClient => createOpenAIEndpointClient({ baseURL, apiKey: process.env.OPENAI_API_KEY });
  // A role's api_base (in its llm args) is called with the same key, as litellm does.
  const atApiBase = new Map<string, LlmClient>();
  const native = nativeCredentials(process.env);
  return routedClient({
    openai: withApiBase(openaiAt(baseUrl ?? process.env.OPENAI_BASE_URL ?? DEFAULT_BASE_URL), (apiBase) => {
      let client = atApiBase.get(apiBase);
      if (!client) atApiBase.set(apiBase, (client = openaiAt(apiBase)));
      return client;
    }),
    anthropic: native.anthropic && createNativeClient({ provider: 'anthropic', ...native.anthropic }),
    google: native.google && createNativeClient({ provider: 'google', ...native.google }),
  });
};

/** Why the run's models cannot be called from here (a provider without credentials), or null. */
export const missingCredentials = (models: readonly string[], openaiConfigured: boolean, env: NodeJS.ProcessEnv): string | null => {
  const native = nativeCredentials(env);
  for (const name of models) {
    const { provider } = modelRoute(name);
    if (isOpenAIRoute(provider) && !openaiConfigured) {
      return `${name} is called on OpenAI, which needs OPENAI_API_KEY; or give --llm-base-url URL of an OpenAI-compatible server`;
    }
    if (provider === 'anthropic' && native.anthropic === null) return `${name} is called on Anthropic, which needs ANTHROPIC_API_KEY`;
    if (provider === 'google' && native.google === null) return `${name} is called on Google, which needs GEMINI_API_KEY (or GOOGLE_GENERATIVE_AI_API_KEY)`;
  }
  return null;
};


export const modelFromFlags = (name: string, argsText: string | undefined, baseUrl: string | undefined): ModelConfig => ({
  client: clientFor(baseUrl),
  model: name,
  llmArgs: parseLlmArgs(argsText, { temperature: pyFloat(0) }),
});
