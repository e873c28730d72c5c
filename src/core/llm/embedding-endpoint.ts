// Where the operator's embeddings go, as the reference calls them: OpenAI's models on the OpenAI-compatible
// endpoint with the OpenAI key; Qwen's on OpenRouter when the operator set either of OpenRouter's variables,
// else on the OpenAI-compatible endpoint too.
import type { EmbedderSpec } from '../knowledge/embedder.ts';
import { operatorApiRoot, operatorBaseUrl, operatorKey } from './providers.ts';
import type { ProviderVars } from './providers.ts';

/** The API root and key of `spec`'s embeddings; `openaiBaseUrl` overrides the operator's OpenAI-compatible endpoint. */
export const embeddingEndpoint = (spec: EmbedderSpec, vars: ProviderVars, openaiBaseUrl?: string): { baseURL: string; apiKey?: string } => {
  const openRouter = spec.provider === 'openrouter' && (operatorKey(vars, 'openrouter') !== undefined || operatorBaseUrl(vars, 'openrouter') !== undefined);
  const provider = openRouter ? 'openrouter' : 'openai';
  const baseURL = (provider === 'openai' ? openaiBaseUrl : undefined) ?? operatorApiRoot(vars, provider);
  const apiKey = operatorKey(vars, provider);
  return { baseURL, ...(apiKey === undefined ? {} : { apiKey }) };
};
