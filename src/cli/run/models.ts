// Model configuration from CLI flags and environment: models by litellm-style names, each called on its
// provider in the registry (core/llm/providers.ts) with the key and API root its variables give; the
// OpenAI-compatible endpoint may instead be the --llm-base-url flag's.
import { parsePyJson, pyFloat } from '../../core/py/index.ts';
import type { LlmClient } from '../../core/llm/types.ts';
import type { PyValue } from '../../core/py/index.ts';
import type { ModelConfig } from '../../core/agents/participant.ts';
import { createNativeClient, routedClient } from '../../core/llm/native-client.ts';
import { createOpenAIEndpointClient } from '../../core/llm/openai-endpoint.ts';
import { withApiBase } from '../../core/llm/api-base.ts';
import { NATIVE_PROVIDERS, PROVIDERS, PROVIDER_KEY_VARS, adapterOwner, keyVarsText, modelRoute, operatorApiRoot, operatorBaseUrl, operatorCredential, operatorKey } from '../../core/llm/providers.ts';
import type { ProviderVars } from '../../core/llm/providers.ts';
import { credentialPaths } from '../../core/schemas/llm-args.ts';

/** The --llm-base-url flag's default, for its help. */
export const LLM_BASE_URL_DEFAULT = `default: ${PROVIDERS.openai.baseUrlVar}, else OpenAI`;

/**
 * A `--*-llm-args` flag's JSON object, keeping int/float kinds (e.g. `{"temperature": 0.0}`). A credential in it
 * is refused: llm args are recorded with the results, so provider keys are read from the environment only.
 */
export const parseLlmArgs = (flag: string, text: string | undefined, fallback: Record<string, PyValue>): Record<string, PyValue> => {
  if (text === undefined) return fallback;
  const value = parsePyJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${flag}: LLM args must be a JSON object, got: ${text}`);
  }
  const [credential] = credentialPaths(value);
  if (credential !== undefined) {
    throw new Error(`${flag}: ${credential.join('.')} is a credential; llm args are recorded with the results, so provider keys are read from the environment only (${PROVIDER_KEY_VARS.join(', ')})`);
  }
  return value as Record<string, PyValue>;
};

/**
 * The client of every model: OpenAI-compatible names on the flag's endpoint, else the configured one, else
 * OpenAI, with the OpenAI key; the other providers' models on theirs with their keys.
 */
export const clientFor = (baseUrl: string | undefined, env: ProviderVars = process.env): LlmClient => {
  const apiKey = operatorKey(env, 'openai');
  const openaiAt = (baseURL: string): LlmClient => createOpenAIEndpointClient({ baseURL, ...(apiKey === undefined ? {} : { apiKey }) });
  // A role's api_base (in its llm args) is called with the same key, as litellm does.
  const atApiBase = new Map<string, LlmClient>();
  const native = NATIVE_PROVIDERS.map((provider) => {
    const credential = operatorCredential(env, provider);
    return [provider, credential && createNativeClient({ provider, ...credential })] as const;
  });
  return routedClient({
    openai: withApiBase(openaiAt(baseUrl ?? operatorApiRoot(env, 'openai')), (apiBase) => {
      let client = atApiBase.get(apiBase);
      if (!client) atApiBase.set(apiBase, (client = openaiAt(apiBase)));
      return client;
    }),
    ...Object.fromEntries(native),
  });
};

/** Why the run's models cannot be called from here (a provider without credentials), or null. */
export const missingCredentials = (models: readonly string[], llmBaseUrl: string | null | undefined, env: ProviderVars): string | null => {
  for (const name of models) {
    const provider = adapterOwner(modelRoute(name).provider);
    if (provider === 'openai') {
      if ((llmBaseUrl ?? null) !== null || operatorBaseUrl(env, provider) || operatorKey(env, provider)) continue;
      return `${name} is called on OpenAI, which needs ${keyVarsText(provider)}; or give --llm-base-url URL of an OpenAI-compatible server`;
    }
    if (operatorKey(env, provider) === undefined) return `${name} is called on ${PROVIDERS[provider].label}, which needs ${keyVarsText(provider)}`;
  }
  return null;
};

/** A model from its name flag and its `argsFlag` (e.g. `--judge-llm-args`) with that flag's text. */
export const modelFromFlags = (name: string, argsFlag: string, argsText: string | undefined, baseUrl: string | undefined): ModelConfig => ({
  client: clientFor(baseUrl),
  model: name,
  llmArgs: parseLlmArgs(argsFlag, argsText, { temperature: pyFloat(0) }),
});
