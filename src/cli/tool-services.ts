// The tool services of a run in this process: embeddings on the OpenAI-compatible endpoint (--llm-base-url or
// OPENAI_BASE_URL, key OPENAI_API_KEY), Qwen's on OpenRouter (OPENROUTER_BASE_URL, key OPENROUTER_API_KEY) when
// either is set, as the reference calls them (the local worker follows the same rule); document vectors in the
// file cache; the reranker on the run's model client.
import type { ToolServices } from '../core/environment/tool-services.ts';
import type { Embedder, EmbedderSpec } from '../core/knowledge/embedder.ts';
import { EMBEDDING_BASE_URLS, createAiSdkEmbedder } from '../core/llm/embedder.ts';
import type { LlmClient } from '../core/llm/types.ts';
import { fileEmbeddingStore } from './embedding-file-store.ts';

const embeddingEndpoint = (spec: EmbedderSpec, llmBaseUrl: string | undefined, env: NodeJS.ProcessEnv): { baseURL: string; apiKey?: string } => {
  const openRouter = spec.provider === 'openrouter' && Boolean(env.OPENROUTER_API_KEY || env.OPENROUTER_BASE_URL);
  const [baseURL, apiKey] = openRouter
    ? [env.OPENROUTER_BASE_URL ?? EMBEDDING_BASE_URLS.openrouter, env.OPENROUTER_API_KEY]
    : [llmBaseUrl ?? env.OPENAI_BASE_URL ?? EMBEDDING_BASE_URLS.openai, env.OPENAI_API_KEY];
  return { baseURL, ...(apiKey === undefined ? {} : { apiKey }) };
};

export const cliToolServices = (model: LlmClient, llmBaseUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): ToolServices => {
  const embedders = new Map<string, Embedder>();
  return {
    embedder: (spec) => {
      const key = `${spec.provider}/${spec.model}`;
      let embedder = embedders.get(key);
      if (!embedder) embedders.set(key, (embedder = createAiSdkEmbedder({ spec, ...embeddingEndpoint(spec, llmBaseUrl, env) })));
      return embedder;
    },
    embeddingStore: fileEmbeddingStore(),
    model,
    nowMs: () => performance.now(),
  };
};
